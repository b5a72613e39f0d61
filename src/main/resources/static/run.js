// One run: followed live to its summary, charts, report, repetitions, self-checks and environment.

import {h, fill, table, notice} from './dom.js';
import {del} from './api.js';
import * as fmt from './format.js';
import {isFinished, badge, heading, errorNotice, link, followLive, cancelButton, chart, whenReport}
  from './view.js';

function progressText(p, status) {
  if (status === 'queued' || !p) return 'Queued: it starts when the runs ahead of it have finished.';
  const rep = p.repetition > 0 ? `Repetition ${p.repetition} of ${p.repetitions}` : `Starting (${p.repetitions} `
    + `repetition${p.repetitions === 1 ? '' : 's'})`;
  return `${rep} · ${p.phase} · ${fmt.seconds(p.elapsedSeconds)} elapsed · about ${fmt.seconds(p.remainingSeconds)} `
    + 'left';
}

export function runView(root, params, id) {
  const base = `/api/runs/${encodeURIComponent(id)}`;
  const title = heading('Run ', h('span', {class: 'mono', title: id}, fmt.shortId(id)), ' ');
  const statusBadge = h('span', {id: 'run-status', role: 'status'});
  title.append(statusBadge);
  const actions = h('p', {class: 'actions', id: 'run-actions'});
  const progressBox = h('section', {id: 'run-progress', class: 'progress-box', hidden: true,
    'aria-label': 'Live progress'});
  const errorBox = h('div', {id: 'run-error'});
  const specBox = h('section', {id: 'run-spec'});
  const summaryBox = h('section', {id: 'run-summary'});
  const chartsBox = h('section', {id: 'run-charts'});
  const timelineBox = h('section', {id: 'run-timeline'});
  const reportBox = h('section', {id: 'run-report'});
  const repsBox = h('section', {id: 'run-repetitions'});
  const hostsBox = h('section', {id: 'run-hosts'});
  const envBox = h('section', {id: 'run-environment'});
  fill(root, title, actions, progressBox, errorBox, specBox, summaryBox, chartsBox, timelineBox, reportBox, repsBox,
    hostsBox, envBox);

  let lastRepetitions = -1;
  let finishedShown = false;
  let liveIntervals = '';

  function render(r) {
    if (live.disposed) return;
    document.title = `Run ${fmt.shortId(r.id)} (${r.status}) · loopbench`;
    root.dataset.status = r.status;
    fill(statusBadge, badge(r.status));
    renderActions(r);
    if (!isFinished(r.status)) {
      progressBox.hidden = false;
      const p = r.progress;
      const total = p ? p.elapsedSeconds + p.remainingSeconds : 0;
      fill(progressBox,
        h('h2', {}, 'Progress'),
        h('p', {id: 'run-progress-text'}, progressText(p, r.status)),
        h('progress', {max: '1', value: String(total > 0 ? Math.min(1, p.elapsedSeconds / total) : 0),
          'aria-label': 'Share of the estimated time elapsed'}));
      renderLiveTimeline(p?.timeline);
    } else {
      progressBox.hidden = true;
    }
    fill(errorBox, r.error ? notice(r.status === 'cancelled' ? 'warn' : 'error',
      `${r.status === 'cancelled' ? 'Cancelled' : 'Failed'}:`, r.error) : null);
    if (!specBox.firstChild) renderSpec(r);
    if (r.repetitions.length !== lastRepetitions || (isFinished(r.status) && !finishedShown)) {
      lastRepetitions = r.repetitions.length;
      renderRepetitions(r);
      renderAcrossHosts(r);
      renderEnvironment(r);
    }
    if (isFinished(r.status) && !finishedShown) {
      finishedShown = true;
      renderSummary(r);
      renderCharts(r);
      renderTimelines(r);
      renderReport(r);
    }
  }

  function renderActions(r) {
    fill(actions,
      !isFinished(r.status) ? cancelButton(base, render, errorBox, 'Cancel run', 'run-cancel') : null, ' ',
      link(`#/runs/new?from=${encodeURIComponent(r.id)}`, 'New run with this spec'), ' · ',
      link(`#/compare?baseline=${encodeURIComponent(r.id)}`, 'Compare with another run'),
      isFinished(r.status) ? [' · ', h('button', {type: 'button', class: 'link-button', onclick: async () => {
        if (!confirm(`Delete run ${r.id}? Its record and results are removed.`)) return;
        try {
          await del(base);
          location.hash = '#/';
        } catch (e) {
          fill(errorBox, errorNotice(e, 'Deleting'));
        }
      }}, 'Delete')] : null);
  }

  function renderSpec(r) {
    const spec = r.spec || {};
    fill(specBox, h('h2', {}, 'Specification'),
      h('p', {class: 'muted'}, `${fmt.specLine(spec)} · ${r.placement ? 'across hosts' : r.isolation} · created `
        + fmt.time(r.createdAt), r.estimatedSeconds ? ` · estimated ${fmt.seconds(r.estimatedSeconds)}` : ''),
      placement(r.placement),
      h('details', {}, h('summary', {}, 'Every field'),
        h('dl', {class: 'spec'}, Object.entries(spec).map(([k, v]) => [h('dt', {}, h('code', {}, k)),
          h('dd', {}, fmt.compact(v))]))));
  }

  // A run across hosts: which agent ran the echo server, and which ran clients, with how many each.
  function placement(p) {
    if (!p) return null;
    const clients = Array.isArray(p.clients) ? p.clients : [];
    const total = clients.reduce((n, c) => n + (fmt.isNum(c.clients) ? c.clients : 0), 0);
    return h('dl', {class: 'spec', id: 'run-placement'},
      h('dt', {}, 'Echo server'), h('dd', {id: 'run-placement-server'}, p.server ?? '–'),
      h('dt', {}, 'Clients'), h('dd', {id: 'run-placement-clients'}, clients.length
        ? [clients.map((c, i) => [i ? ', ' : null, h('span', {class: 'placement-client'},
          `${c.agent ?? '–'}: ${fmt.int(c.clients)} client${c.clients === 1 ? '' : 's'}`)]),
        clients.length > 1 ? ` (${fmt.int(total)} in all)` : null] : '–'));
  }

  function renderSummary(r) {
    const s = r.summary;
    if (!s) {
      fill(summaryBox, r.status === 'succeeded' ? notice('warn', 'No summary in this record.') : null);
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
    fill(summaryBox, h('h2', {}, 'Summary'),
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

  function renderCharts(r) {
    if (!r.repetitions.length) {
      fill(chartsBox);
      return;
    }
    fill(chartsBox, h('h2', {}, 'Charts'), h('div', {class: 'charts'},
      chart(`${base}/charts/throughput.svg`, 'Round trips/s: median, whisker min–max', 'chart-throughput'),
      chart(`${base}/charts/p99.svg`, 'RTT p99: median, whisker min–max', 'chart-p99')));
  }

  // The running repetition's timeline, redrawn by the service whenever an interval has closed since the last look.
  function renderLiveTimeline(t) {
    if (!t) return;
    const key = `${t.repetition}/${t.intervals}`;
    if (key === liveIntervals) return;
    liveIntervals = key;
    const l = t.latest;
    fill(timelineBox, h('h2', {}, 'Over time (live)'),
      h('p', {id: 'run-timeline-live-text', 'data-intervals': String(t.intervals)},
        `Repetition ${t.repetition}: ${t.intervals} interval${t.intervals === 1 ? '' : 's'} so far; the latest `
        + `(${l.phase}) ${fmt.int(l.roundTripsPerSecond)} round trips/s, p99 ${fmt.us(l.p99Us)}.`),
      chart(`${base}/live/timeline.svg?intervals=${encodeURIComponent(key)}`,
        'Throughput and p99 per interval so far; GC and JIT marks come when the repetition ends',
        'chart-timeline-live'));
  }

  // Each repetition over time (the median by throughput first) and the run's latency by percentile.
  function renderTimelines(r) {
    const withTimeline = r.repetitions.filter(x => x.timeline);
    const spectrum = r.repetitions.some(x => x.ok && x.latencyHistogram)
      ? chart(`${base}/charts/spectrum-1.svg`, 'Latency by percentile: each repetition and pooled',
        'chart-spectrum') : null;
    if (!withTimeline.length) {
      fill(timelineBox, spectrum ? [h('h2', {}, 'By percentile'), h('div', {class: 'charts'}, spectrum)] : null);
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
    fill(timelineBox, h('h2', {}, 'Over time and by percentile'),
      h('p', {}, h('label', {for: 'run-timeline-repetition'}, 'Repetition '), chooser),
      h('div', {class: 'charts'}, figure, spectrum));
  }

  function renderReport(r) {
    fill(reportBox, h('h2', {}, 'Report'), h('p', {class: 'muted'}, 'Looking for the report…'));
    whenReport(reportBox, base, live, (html, md) => {
      const frameBox = h('div', {class: 'report-frame'});
      const toggle = h('button', {type: 'button', 'aria-expanded': 'false', onclick: () => {
        const open = toggle.getAttribute('aria-expanded') === 'true';
        toggle.setAttribute('aria-expanded', String(!open));
        toggle.textContent = open ? 'Show the report here' : 'Hide the report';
        fill(frameBox, open ? null : h('iframe', {src: html, title: `Report of run ${r.id}`, sandbox: '',
          loading: 'lazy'}));
      }}, 'Show the report here');
      fill(reportBox, h('h2', {}, 'Report'), h('p', {},
        link(html, 'HTML report', {id: 'run-report-html', target: '_blank', rel: 'noopener'}), ' · ',
        link(md, 'Markdown report', {id: 'run-report-md', target: '_blank', rel: 'noopener'}), ' · ', toggle),
      frameBox);
    });
  }

  function renderRepetitions(r) {
    if (!r.repetitions.length) {
      fill(repsBox);
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
    const open = r.spec?.load === 'open';
    const checks = r.repetitions.map(x => [
      {value: String(x.repetition), header: true},
      {value: fmt.jit(x.jit), class: x.jit && !x.jit.quiet ? 'warn-text' : null},
      fmt.fairness(x.fairness),
      {value: x.windowFill ? x.windowFill.ratio.toFixed(3) : 'n/a', class: 'num'},
      {value: fmt.stampGap(x.stampGap), class: x.stampGap && x.stampGap.share > 0.1 ? 'num warn-text' : 'num'},
      fmt.warmup(x.warmup),
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
    fill(repsBox, h('h2', {}, 'Repetitions'), h('div', {class: 'scroll'}, table(
      ['#', 'Outcome', 'Round trips/s', 'MiB/s', 'p50', 'p99', 'p99.9', 'max', 'CPU', 'Peak RSS', 'Errors', ''],
      rows, {className: 'repetitions'})),
    h('h3', {}, 'Self-checks'), h('div', {class: 'scroll', id: 'run-checks'}, table(
      ['#', 'JIT (measured phase)', 'Fairness', 'Window fill ratio', 'Stamp gap p50 / p99', 'Warm-up',
        ...(open ? ['Send lag p50 / p99', 'Late / dropped', 'Client p99s (corrected)'] : []), 'Warnings', 'Notes'],
      checks, {className: 'checks', caption: 'JIT-quiet: measured-path code (the engine\'s client, server, '
        + 'protocol and message code, Netty, Reactor, HdrHistogram, the JDK\'s NIO, networking and crypto) changed '
        + 'at most 5 times (deoptimizations and C2/OSR compilations), and the compilers took at most 2.5 % of the '
        + 'CPU the phase had. '
        + 'A warning makes a figure doubtful (no verdict on it is established); a note does not. '
        + 'Fairness: Jain\'s index of validated echoes per client (1 is even). Window fill: round trips/s × '
        + 'mean RTT ÷ (clients × window), closed sliding-window load only; more than 5 % off is a warning. '
        + 'Stamp gap: from a message\'s send stamp to the hand-over of its bytes to the transport, p50 / p99; a '
        + 'p50 over 10 % of the RTT p50 is a warning.'})));
  }

  // A run across hosts: per repetition, what each agent did and how simultaneous the measured phase's start was.
  function renderAcrossHosts(r) {
    const hosts = Array.isArray(r.acrossHosts) ? r.acrossHosts : [];
    if (!hosts.length) {
      fill(hostsBox);
      return;
    }
    // CPU and peak RSS per agent: columns only when the records carry them (runs recorded before they were do not)
    const shares = hosts.flatMap(x => Array.isArray(x.agents) ? x.agents : []);
    const cpu = shares.some(a => a.cpuPercent !== undefined);
    const rss = shares.some(a => a.peakRssBytes !== undefined);
    const headers = ['Agent', 'Role', 'Clients', 'Messages', 'Round trips/s', 'p99 RTT', 'Start late',
      ...(cpu ? ['CPU'] : []), ...(rss ? ['Peak RSS'] : []), 'Error'];
    const row = a => [
      {value: a.member ?? '–', header: true},
      a.server ? (a.clients > 0 ? 'server, clients' : 'server') : 'clients',
      {value: fmt.int(a.clients), class: 'num'},
      {value: fmt.int(a.messages), class: 'num'},
      {value: fmt.int(a.roundTripsPerSecond), class: 'num'},
      {value: fmt.us(a.p99Us), class: 'num'},
      {value: fmt.us(fmt.isNum(a.startLateNanos) ? a.startLateNanos / 1e3 : null), class: 'num'},
      ...(cpu ? [{value: fmt.pct(a.cpuPercent), class: 'num'}] : []),
      ...(rss ? [{value: fmt.mib(a.peakRssBytes), class: 'num'}] : []),
      a.error ? h('span', {class: 'error-text'}, a.error) : '–',
    ];
    const caption = 'One row per agent; the repetition\'s merged figures are under Repetitions. Start late: when the '
      + 'agent\'s clients began their measured phase, after the instant all were told, on the coordinator\'s '
      + 'timeline through its clock offset.'
      + (cpu ? ' CPU: the agent\'s process over its measured phase, 100 % = one logical CPU.' : '');
    fill(hostsBox, h('h2', {}, 'Across hosts'), hosts.map(x => {
      const s = x.start;
      const agents = Array.isArray(x.agents) ? x.agents : [];
      return h('div', {class: 'hosts-repetition', dataset: {repetition: String(x.repetition)}},
        h('h3', {}, `Repetition ${x.repetition}`),
        s ? h('p', {class: 'start-skew'}, (s.stopSkewNanos == null ? 'Start barrier skew: ' : 'Measured start skew: ')
          + `${fmt.us(s.skewNanos / 1e3)} (± ${fmt.us(s.skewUncertaintyNanos / 1e3)})`
          + (s.stopSkewNanos == null ? '' : `; stop skew ${fmt.us(s.stopSkewNanos / 1e3)}; every client agent in `
            + `its measured phase together for ${(s.overlapNanos / 1e9).toFixed(3)} s`)) : null,
        agents.length ? h('div', {class: 'scroll'}, table(headers, agents.map(row), {className: 'hosts', caption}))
          : notice('warn', 'Failed before its measured phase:', 'see the repetition\'s error.'));
    }));
  }

  function renderEnvironment(r) {
    const first = r.repetitions.find(x => x.transport) || {};
    const env = r.workerEnvironment;
    const items = [
      ['Transport', r.transport || first.transport],
      ['Channels', first.serverChannel ? `${first.serverChannel} / ${first.clientChannel}` : null],
      ['Connections on one thread', first.connectionsOnOneThread],
      ['TLS negotiated', first.tls ? `${first.tls.provider}: ${first.tls.protocol} ${first.tls.cipherSuite}` : null],
      ['JVM', env ? `${env.javaVendor ?? ''} ${env.javaVersion ?? ''}`.trim() : null],
      ['Host', r.system ? `${r.system.cpuModel}, ${r.system.logicalCpus} logical CPUs, ${r.system.os} `
        + `${r.system.kernel}` : null],
    ].filter(([, v]) => v !== null && v !== undefined && v !== '');
    fill(envBox, items.length ? [h('h2', {}, 'Environment'), h('dl', {class: 'spec'},
      items.map(([k, v]) => [h('dt', {}, k), h('dd', {}, fmt.compact(v))])),
    r.workerEnvironment ? h('details', {}, h('summary', {}, 'Everything the worker recorded'),
      h('pre', {}, JSON.stringify(r.workerEnvironment, null, 2))) : null] : null);
  }

  const live = followLive(root, {base, id, noun: 'run', pollMs: 1000, render});
  return live.dispose;
}

function nonZero(errors) {
  if (!errors || typeof errors !== 'object') return '';
  return Object.entries(errors).filter(([, v]) => typeof v === 'number' && v > 0)
    .map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ');
}
