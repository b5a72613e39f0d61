// The finished run's summary: its key figures over every repetition, with the warnings and notes on them.

import {h, fill, table, notice} from '../dom.js';
import * as fmt from '../format.js';

export function renderSummary(box, r) {
  const s = r.summary;
  if (!s) {
    fill(box, r.status === 'succeeded' ? notice('warn', 'No summary in this record.') : null);
    return;
  }
  const L = s.latency || {};
  const P = s.pooledLatency;
  const mode = L.mode === 'batch' ? 'per batch' : 'per message';
  const fixed3 = x => x.toFixed(3);
  // [metric, median [min, max], pooled]: the pooled column only for the latencies
  const rows = [
    ['Round trips/s', fmt.stat(s.roundTripsPerSecond, fmt.int)],
    ['Payload MiB/s (both directions)', fmt.stat(s.payloadMibPerSecond)],
    [`RTT p50 (${mode})`, fmt.stat(L.p50Us, fmt.us), fmt.us(P?.p50Us)],
    ['RTT p90', fmt.stat(L.p90Us, fmt.us), fmt.us(P?.p90Us)],
    ['RTT p95', fmt.stat(L.p95Us, fmt.us), fmt.us(P?.p95Us)],
    ['RTT p99', fmt.stat(L.p99Us, fmt.us), fmt.us(P?.p99Us)],
    ['RTT p99.9', fmt.stat(L.p999Us, fmt.us), fmt.us(P?.p999Us)],
    ['RTT max', fmt.stat(L.maxUs, fmt.us), fmt.us(P?.maxUs)],
    ['RTT mean', fmt.stat(L.meanUs, fmt.us), fmt.us(P?.meanUs)],
    ['CPU (100 % = one logical CPU)', fmt.stat(s.cpuPercent, fmt.pct)],
    ['Peak RSS', fmt.stat(s.peakRssBytes, fmt.mib)],
    ['GC collections', fmt.stat(s.gcCollections, fmt.int)],
    ['JIT compilations (measured phase)', fmt.stat(s.jitCompilations, fmt.int)],
    ['JIT deoptimizations (measured phase)', fmt.stat(s.jitDeoptimizations, fmt.int)],
    ['Fairness (Jain\'s index)', fmt.stat(s.jainIndex, fixed3)],
    ['Window fill ratio', fmt.stat(s.windowFillRatio, fixed3)],
    ['Warm-up', fmt.stat(s.warmupSeconds, fmt.seconds)],
  ].map(([k, v, pooled]) => [{value: k, header: true}, {value: v, class: 'num'},
    {value: pooled ?? '', class: 'num'}]);
  const warnings = Array.isArray(s.warnings) ? s.warnings : [];
  const notes = Array.isArray(s.notes) ? s.notes : [];
  fill(box, h('h2', {}, 'Summary'),
    table(['Metric', 'Median [min, max]', 'Pooled'], rows, {className: 'summary', caption:
      `Over ${s.repetitions} repetition${s.repetitions === 1 ? '' : 's'}; latencies are medians of each `
      + 'repetition\'s percentiles, and "pooled" gives the percentiles of every repetition\'s observations '
      + 'merged into one histogram.'}),
    warnings.length ? h('div', {id: 'run-warnings'}, notice('warn', 'Warnings: these figures are doubtful.',
      h('ul', {}, warnings.map(w => h('li', {}, w))))) : null,
    notes.length ? h('div', {id: 'run-notes'}, notice('info', 'Notes (they do not make the figures doubtful):',
      h('ul', {}, notes.map(n => h('li', {}, n))))) : null,
    s.jitCompilations == null ? notice('info', 'Recorded before the self-checks:', 'JIT activity, fairness and '
      + 'window fill were not measured, so nothing here says the measured phases were steady and fair.') : null);
}
