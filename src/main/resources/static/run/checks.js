// The repetitions' self-checks: JIT quiet, fairness, window fill, stamp gap, warm-up, the server's work (busy and
// queued, where it has work or an offload) and, under open load, send lag, late and dropped messages; with each
// repetition's warnings and notes.

import {h, table} from '../dom.js';
import * as fmt from '../format.js';

// The heading and the table, shown in the repetitions' section under their figures.
export function selfChecks(r) {
  const open = r.spec?.load === 'open';
  const work = r.repetitions.some(x => x.offloadUse);
  const meanPeak = (mean, peak) => `${mean.toFixed(1)} / ${fmt.int(peak)}`;
  const checks = r.repetitions.map(x => [
    {value: String(x.repetition), header: true},
    {value: fmt.jit(x.jit), class: x.jit && !x.jit.quiet ? 'warn-text' : null},
    fmt.fairness(x.fairness),
    {value: x.windowFill ? x.windowFill.ratio.toFixed(3) : 'n/a', class: 'num'},
    {value: fmt.stampGap(x.stampGap), class: x.stampGap && x.stampGap.share > 0.1 ? 'num warn-text' : 'num'},
    fmt.warmup(x.warmup),
    ...(work ? [{value: x.offloadUse ? `${meanPeak(x.offloadUse.busyMean, x.offloadUse.busyPeak)}; `
        + `${meanPeak(x.offloadUse.queueMean, x.offloadUse.queuePeak)}` : '–', class: 'num'}] : []),
    ...(open ? [
      {value: x.openLoad?.sendLag ? `${fmt.us(x.openLoad.sendLag.p50Us)} / ${fmt.us(x.openLoad.sendLag.p99Us)}`
        : '–', class: 'num'},
      {value: x.openLoad ? `${fmt.int(x.openLoad.lateMessages)} / ${fmt.int(x.openLoad.droppedMessages)} of `
        + fmt.int(x.openLoad.intendedMessages) : '–', class: 'num'},
      {value: x.openLoad?.clientSpread ? `${fmt.us(x.openLoad.clientSpread.minP99Us)} – `
        + fmt.us(x.openLoad.clientSpread.maxP99Us) : '–', class: 'num'}] : []),
    Array.isArray(x.warnings) && x.warnings.length ? h('ul', {class: 'warnings'},
      x.warnings.map(w => h('li', {}, w))) : 'none',
    Array.isArray(x.notes) && x.notes.length ? h('ul', {}, x.notes.map(n => h('li', {}, n))) : 'none',
  ]);
  return [h('h3', {}, 'Self-checks'), h('div', {class: 'scroll', id: 'run-checks'}, table(
    ['#', 'JIT (measured phase)', 'Fairness', 'Window fill ratio', 'Stamp gap p50 / p99', 'Warm-up',
      ...(work ? ['Server work: busy; queued (mean / peak)'] : []),
      ...(open ? ['Send lag p50 / p99', 'Late / dropped', 'Client p99s (corrected)'] : []), 'Warnings', 'Notes'],
    checks, {className: 'checks', caption: 'JIT-quiet: measured-path code (the engine\'s client, server, '
      + 'protocol and message code, Netty, Reactor, HdrHistogram, the JDK\'s NIO, networking and crypto) changed '
      + 'at most 5 times (deoptimizations and C2/OSR compilations), and the compilers took at most 2.5 % of the '
      + 'CPU the phase had. '
      + 'A warning makes a figure doubtful (no verdict on it is established); a note does not. '
      + 'Fairness: Jain\'s index of validated echoes per client (1 is even). Window fill: round trips/s × '
      + 'mean RTT ÷ (clients × window), closed sliding-window load only; more than 5 % off is a warning. '
      + 'Stamp gap: from a message\'s send stamp to the hand-over of its bytes to the transport, p50 / p99; a '
      + 'p50 over 10 % of the RTT p50 is a warning. Server work: messages in work at once (the threads the work '
      + 'kept busy) and hand-offs waiting for an offload thread, each the measured phase\'s time average / peak.'}))];
}
