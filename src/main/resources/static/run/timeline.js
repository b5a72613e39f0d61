// The run's timelines: the running repetition's as it grows, then each repetition's over time and the run's latency
// by percentile.

import {h, fill} from '../dom.js';
import * as fmt from '../format.js';
import {chart} from '../view.js';

// The running repetition's timeline, redrawn by the service whenever an interval has closed since the last look:
// shown is the key of the intervals on the page now, and the key returned is what the page shows after.
export function renderLiveTimeline(box, base, t, shown) {
  if (!t) return shown;
  const key = `${t.repetition}/${t.intervals}`;
  if (key === shown) return shown;
  const l = t.latest;
  fill(box, h('h2', {}, 'Over time (live)'),
    h('p', {id: 'run-timeline-live-text', 'data-intervals': String(t.intervals)},
      `Repetition ${t.repetition}: ${t.intervals} interval${t.intervals === 1 ? '' : 's'} so far; the latest `
      + `(${l.phase}) ${fmt.int(l.roundTripsPerSecond)} round trips/s, p99 ${fmt.us(l.p99Us)}.`),
    chart(`${base}/live/timeline.svg?intervals=${encodeURIComponent(key)}`,
      'Throughput and p99 per interval so far; GC and JIT marks come when the repetition ends',
      'chart-timeline-live'));
  return key;
}

// Each repetition over time (the median by throughput first) and the run's latency by percentile.
export function renderTimelines(box, base, r) {
  const withTimeline = r.repetitions.filter(x => x.timeline);
  const spectrum = r.repetitions.some(x => x.ok && x.latencyHistogram)
    ? chart(`${base}/charts/spectrum-1.svg`, 'Latency by percentile: each repetition and pooled',
      'chart-spectrum') : null;
  if (!withTimeline.length) {
    fill(box, spectrum ? [h('h2', {}, 'By percentile'), h('div', {class: 'charts'}, spectrum)] : null);
    return;
  }
  const byThroughput = withTimeline.filter(x => x.ok).sort((a, b) => a.roundTripsPerSecond - b.roundTripsPerSecond);
  const median = byThroughput.length ? byThroughput[Math.floor((byThroughput.length - 1) / 2)] : withTimeline[0];
  const figure = h('div', {id: 'run-timeline-chart'});
  const show = n => fill(figure, chart(`${base}/charts/timeline-1-${n}.svg`, `Repetition ${n} over time: `
    + 'throughput, p99, the measured phase\'s start, GC and JIT marks', 'chart-timeline'));
  const chooser = h('select', {id: 'run-timeline-repetition', onchange: () => show(chooser.value)},
    withTimeline.map(x => h('option', {value: String(x.repetition)}, `Repetition ${x.repetition}`
      + (x === median ? ' (median throughput)' : '') + (x.ok ? '' : ' (failed)'))));
  chooser.value = String(median.repetition);
  show(median.repetition);
  fill(box, h('h2', {}, 'Over time and by percentile'),
    h('p', {}, h('label', {for: 'run-timeline-repetition'}, 'Repetition '), chooser),
    h('div', {class: 'charts'}, figure, spectrum));
}
