// One matrix: followed live to its cases (each one's CPU profile on request), charts and report.

import {h, fill, table, notice} from './dom.js';
import * as fmt from './format.js';
import {isFinished, badge, heading, link, followLive, cancelButton, chart, whenReport} from './view.js';
import {matrixProgressText} from './matrices.js';
import {profileSection} from './run/profile.js';

export function matrixView(root, params, id) {
  const base = `/api/matrices/${encodeURIComponent(id)}`;
  const statusBadge = h('span', {id: 'matrix-status', role: 'status'});
  const actions = h('p', {class: 'actions'});
  const progressBox = h('section', {id: 'matrix-progress', class: 'progress-box', hidden: true,
    'aria-label': 'Live progress'});
  const errorBox = h('div', {id: 'matrix-error'});
  const casesBox = h('section', {id: 'matrix-cases-table'});
  const profileBox = h('section', {id: 'matrix-profile'});
  const chartsBox = h('section', {id: 'matrix-charts'});
  const reportBox = h('section', {id: 'matrix-report'});
  const specBox = h('p', {id: 'matrix-spec', class: 'muted'});
  fill(root, heading('Matrix ', h('span', {class: 'mono', title: id}, fmt.shortId(id)), ' ', statusBadge),
    actions, specBox, progressBox, errorBox, casesBox, profileBox, chartsBox, reportBox);
  let finishedShown = false;
  // the case whose CPU profile is shown under the cases, and what of it is drawn (redrawn only when that changes)
  const profiled = {number: null, drawn: ''};

  function render(m) {
    if (live.disposed) return;
    root.dataset.status = m.status;
    document.title = `Matrix ${fmt.shortId(id)} (${m.status}) · loopbench`;
    fill(statusBadge, badge(m.status));
    fill(specBox, matrixSpecLine(m));
    fill(actions, !isFinished(m.status) ? cancelButton(base, render, errorBox, 'Cancel matrix') : null, !isFinished(m.status) ? ' · ' : null,
    link(`#/compare?baseline=${encodeURIComponent(id)}`, 'Compare with another matrix'));
    if (!isFinished(m.status)) {
      const p = m.progress;
      progressBox.hidden = false;
      fill(progressBox, h('h2', {}, 'Progress'),
        h('p', {id: 'matrix-progress-text'}, m.status === 'queued' || !p ? 'Queued.' : matrixProgressText(p)),
        p && (p.steps || p.cases) ? h('progress', {max: String(p.steps || p.cases),
          value: String(Math.max(0, (p.step ?? p.caseNumber ?? p.case ?? 1) - 1)),
          'aria-label': 'Steps finished'}) : null);
    } else {
      progressBox.hidden = true;
    }
    fill(errorBox, m.error ? notice('error', 'Failed:', m.error) : null);
    renderCases(m);
    if (isFinished(m.status) && !finishedShown) {
      finishedShown = true;
      renderCharts(m);
      renderReport();
    }
  }

  function renderCases(m) {
    const cases = Array.isArray(m.cases) ? m.cases : [];
    if (!cases.length) {
      fill(casesBox);
      return;
    }
    const wanted = m.spec?.repetitions;
    // across hosts: where each case's load runs, its agent group's server and clients per agent
    const placed = cases.some(c => c.placement);
    const rows = cases.map(c => [
      {value: String(c.number ?? ''), header: true},
      fmt.specLine(c.spec),
      ...(placed ? [c.placement ? `group ${c.agentGroup}: server ${c.placement.server}; clients `
        + (c.placement.clients || []).map(a => `${a.agent} × ${a.clients}`).join(', ') : '–'] : []),
      c.transport || '–',
      {value: `${c.repetitions?.length ?? 0}${fmt.isNum(wanted) ? ` of ${wanted}` : ''}`, class: 'num'},
      {value: fmt.stat(c.summary?.roundTripsPerSecond, fmt.int), class: 'num'},
      {value: fmt.stat(c.summary?.latency?.p99Us, fmt.us), class: 'num'},
      c.repetitions?.some(x => x.cpuProfile) ? h('button', {type: 'button', class: 'link-button',
        dataset: {case: String(c.number)}, 'aria-controls': 'matrix-profile',
        'aria-label': `CPU profile of case ${c.number}`, onclick: () => {
          profiled.number = profiled.number === c.number ? null : c.number;
          showProfile(cases);
        }}) : '–',
      c.error ? h('span', {class: 'error-text'}, c.error) : c.summary ? caseOutcome(c.summary) : '',
    ]);
    fill(casesBox, h('h2', {}, 'Cases'), h('div', {class: 'scroll'}, table(
      ['#', 'Case', ...(placed ? ['Agents'] : []), 'Transport', 'Repetitions', 'Round trips/s median [min, max]',
        'RTT p99 median [min, max]', 'CPU profile', ''],
      rows, {className: 'cases', caption: 'Every case of the matrix, in the order it runs'})));
    showProfile(cases);
  }

  // the chosen case's CPU profile, with the same section as a run's; its button says whether it is shown
  function showProfile(cases) {
    for (const b of casesBox.querySelectorAll('button[data-case]')) {
      const open = Number(b.dataset.case) === profiled.number;
      b.setAttribute('aria-expanded', String(open));
      b.textContent = open ? 'Hide' : 'Show';
    }
    const c = cases.find(x => x.number === profiled.number);
    const key = c ? `${c.number}/${c.repetitions.length}/${Boolean(c.summary)}` : '';
    if (key === profiled.drawn) return;
    profiled.drawn = key;
    fill(profileBox, c ? profileSection(c, 'matrix-profile', `Where the CPU time goes: case ${c.number}, `
      + fmt.specLine(c.spec)) : null);
  }

  function renderCharts(m) {
    const names = Array.isArray(m.charts) ? m.charts : [];
    if (!names.length) return;
    fill(chartsBox, h('h2', {}, 'Charts'), h('div', {class: 'charts'}, names.map(c => {
      const name = typeof c === 'string' ? c : c.name;
      const src = typeof c === 'object' && c.href ? c.href : `${base}/charts/${encodeURIComponent(name)}.svg`;
      return chart(src, typeof c === 'object' && c.title ? c.title : name, `matrix-chart-${name}`);
    })));
  }

  function renderReport() {
    whenReport(reportBox, base, live, (html, md) => {
      fill(reportBox, h('h2', {}, 'Report'),
        h('p', {}, link(html, 'Open the HTML report', {target: '_blank', rel: 'noopener', id: 'matrix-report-html'}),
          ' · ', link(md, 'Markdown report', {target: '_blank', rel: 'noopener', id: 'matrix-report-md'})),
        h('div', {class: 'report-frame'}, h('iframe', {src: html, title: `Report of matrix ${id}`, sandbox: ''})));
    });
  }

  const live = followLive(root, {base, id, noun: 'matrix', pollMs: 2000, render});
  return live.dispose;
}

/** "ok", or "ok · 2 warnings" (their text on hover) for a case whose repetitions carry warnings. */
function caseOutcome(summary) {
  const warnings = Array.isArray(summary.warnings) ? summary.warnings : [];
  return warnings.length ? h('span', {}, 'ok · ', h('span', {class: 'warn-text', title: warnings.join('\n')},
    `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`)) : 'ok';
}

function matrixSpecLine(m) {
  const s = m.spec || {};
  const list = (name, v) => (Array.isArray(v) ? `${name} ${v.map(x => (typeof x === 'object' ? Object.values(x)
    .join('×') : x)).join(', ')}` : null);
  return [
    Array.isArray(m.cases) ? `${m.cases.length} case${m.cases.length === 1 ? '' : 's'}` : null,
    list('protocols', s.protocols), list('payloads', s.payloads),
    s.profiles ? list('profiles', s.profiles) : 'default profiles',
    list('IO models', s.ioModels), list('IO threads', s.ioThreads), list('work', s.work),
    list('transports', s.transports), list('window modes', s.windowModes), list('executions', s.executions),
    fmt.isNum(s.seconds) ? `${s.seconds} s measured` : null,
    fmt.isNum(s.warmupSeconds) ? `${s.warmupSeconds} s warm-up${s.warmupMode ? ` (${s.warmupMode})` : ''}` : null,
    fmt.isNum(s.repetitions) ? `${s.repetitions} repetition${s.repetitions === 1 ? '' : 's'}` : null,
    s.isolation, m.estimatedSeconds ? `estimated ${fmt.seconds(m.estimatedSeconds)}` : null,
    `created ${fmt.time(m.createdAt)}`,
  ].filter(Boolean).join(' · ');
}
