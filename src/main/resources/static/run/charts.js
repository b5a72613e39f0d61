// The finished run's charts: throughput and p99 over its repetitions.

import {h, fill} from '../dom.js';
import {chart} from '../view.js';

export function renderCharts(box, base, r) {
  if (!r.repetitions.length) {
    fill(box);
    return;
  }
  fill(box, h('h2', {}, 'Charts'), h('div', {class: 'charts'},
    chart(`${base}/charts/throughput.svg`, 'Round trips/s: median, whisker min–max', 'chart-throughput'),
    chart(`${base}/charts/p99.svg`, 'RTT p99: median, whisker min–max', 'chart-p99')));
}
