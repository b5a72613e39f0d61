// The run's repetitions: one row of figures each, followed by their self-checks.

import {h, fill, table} from '../dom.js';
import * as fmt from '../format.js';
import {selfChecks} from './checks.js';

export function renderRepetitions(box, r) {
  if (!r.repetitions.length) {
    fill(box);
    return;
  }
  // under open load a dropped message counts censored at the phase's end: percentiles above the delivered share
  // are lower bounds
  const atLeast = (x, p) => (x.openLoad?.lowerBoundsAbovePercentile ?? 100) < p ? '≥ ' : '';
  const rows = r.repetitions.map(x => [
    {value: String(x.repetition), header: true},
    x.ok ? 'ok' : h('span', {class: 'error-text'}, 'failed'),
    {value: fmt.int(x.roundTripsPerSecond), class: 'num'},
    {value: fmt.sig(x.payloadMibPerSecond), class: 'num'},
    {value: atLeast(x, 50) + fmt.us(x.latency?.p50Us), class: 'num'},
    {value: atLeast(x, 99) + fmt.us(x.latency?.p99Us), class: 'num'},
    {value: atLeast(x, 99.9) + fmt.us(x.latency?.p999Us), class: 'num'},
    {value: atLeast(x, 100) + fmt.us(x.latency?.maxUs), class: 'num'},
    {value: fmt.pct(x.cpu?.percent), class: 'num'},
    {value: fmt.mib(x.memory?.peakRssBytes), class: 'num'},
    nonZero(x.errors) || 'none',
    x.error ? h('span', {class: 'error-text'}, x.error) : '',
  ]);
  fill(box, h('h2', {}, 'Repetitions'), h('div', {class: 'scroll'}, table(
    ['#', 'Outcome', 'Round trips/s', 'MiB/s', 'p50', 'p99', 'p99.9', 'max', 'CPU', 'Peak RSS', 'Errors', ''],
    rows, {className: 'repetitions'})),
  selfChecks(r));
}

function nonZero(errors) {
  if (!errors || typeof errors !== 'object') return '';
  return Object.entries(errors).filter(([, v]) => typeof v === 'number' && v > 0)
    .map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ');
}
