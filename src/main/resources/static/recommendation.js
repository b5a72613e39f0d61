// One recommendation: its answer, the race's plan, progress followed live while it races, and every candidate.

import {h, fill, table, notice} from './dom.js';
import * as fmt from './format.js';
import {isFinished, badge, heading, link, followLive, cancelButton} from './view.js';

export function recommendationView(root, params, id) {
  const base = `/api/recommendations/${encodeURIComponent(id)}`;
  const statusBadge = h('span', {id: 'recommendation-status', role: 'status'});
  const actions = h('p', {class: 'actions', id: 'recommendation-actions'});
  const answerBox = h('section', {id: 'recommendation-answer', class: 'answer-box', 'aria-label': 'Answer'});
  const progressBox = h('section', {id: 'recommendation-progress', class: 'progress-box', hidden: true,
    'aria-label': 'Live progress'});
  const errorBox = h('div', {id: 'recommendation-error'});
  const planBox = h('section', {id: 'recommendation-plan'});
  const candidatesBox = h('section', {id: 'recommendation-candidates'});
  fill(root, heading('Recommendation ', h('span', {class: 'mono', title: id}, fmt.shortId(id)), ' ', statusBadge),
    actions, answerBox, progressBox, errorBox, planBox, candidatesBox);

  // what each section last drew from: progress events come every second, the race changes once a repetition
  const shown = {};
  const changed = (section, value) => {
    const key = JSON.stringify(value ?? null);
    if (shown[section] === key) return false;
    shown[section] = key;
    return true;
  };

  function render(r) {
    if (live.disposed) return;
    const v = r.verdict || {};
    root.dataset.status = r.status;
    document.title = `Recommendation ${fmt.shortId(id)} (${r.status}) · loopbench`;
    if (changed('status', r.status)) {
      fill(statusBadge, badge(r.status));
      fill(actions,
        !isFinished(r.status) ? [cancelButton(base, render, errorBox, 'Cancel recommendation',
          'recommendation-cancel'), ' '] : null,
        link(`${base}/report`, 'Markdown report', {target: '_blank', rel: 'noopener', id: 'recommendation-report-md'}),
        ' · ', link(`#/recommendations/new?from=${encodeURIComponent(id)}`, 'Ask again with this request'),
        ' · ', link('#/recommendations', 'All recommendations'));
    }
    if (changed('answer', [v.outcome, v.answer, v.runnerUp, v.margin])) renderAnswer(v);
    renderProgress(r);
    if (changed('error', [r.status, r.error])) {
      fill(errorBox, r.error ? notice(r.status === 'cancelled' ? 'warn' : 'error',
        `${r.status === 'cancelled' ? 'Cancelled' : 'Failed'}:`, r.error) : null);
    }
    if (changed('plan', [r.status, r.finishedAt, v.rounds, v.decidedAtRound])) renderPlan(r, v);
    if (changed('candidates', v.candidates)) renderCandidates(v.candidates);
  }

  function renderAnswer(v) {
    const m = v.margin;
    fill(answerBox,
      h('p', {class: 'answer'}, v.outcome ? [h('span', {class: `badge outcome-${v.outcome}`,
        id: 'recommendation-outcome'}, v.outcome), ' '] : null,
      h('span', {id: 'recommendation-answer-text'}, v.answer || 'Not judged yet.')),
      v.runnerUp && m ? h('p', {class: 'muted', id: 'recommendation-margin'},
        `Against the runner-up, ${v.runnerUp}: ${fmt.ratio(m.ratio)}`,
        fmt.isNum(m.lower) && fmt.isNum(m.upper) ? ` (interval ${fmt.ratio(m.lower)} – ${fmt.ratio(m.upper)})` : '',
        m.decision ? `, ${String(m.decision).replaceAll('_', ' ')}` : '') : null);
  }

  function renderProgress(r) {
    if (isFinished(r.status)) {
      progressBox.hidden = true;
      return;
    }
    progressBox.hidden = false;
    const p = r.status === 'running' ? r.progress : null;
    fill(progressBox, h('h2', {}, 'Progress'),
      h('p', {id: 'recommendation-progress-text'}, r.status === 'queued'
        ? 'Queued: it starts when the runs, matrices and recommendations ahead of it have finished.'
        : p ? `Round ${p.round} of at most ${p.maxRounds} · ${p.candidate} under way (repetition ${p.step}) · `
          + `${p.racing} candidate${p.racing === 1 ? '' : 's'} racing · ${fmt.seconds(p.elapsedSeconds)} of the `
          + `${fmt.seconds(p.budgetSeconds)} budget` : 'Starting…'),
      p && p.budgetSeconds > 0 ? h('progress', {max: String(p.budgetSeconds),
        value: String(Math.min(p.elapsedSeconds, p.budgetSeconds)), 'aria-label': 'Share of the budget used'})
        : null);
  }

  function renderPlan(r, v) {
    const spec = r.spec || {};
    const l = spec.load || {};
    const plan = r.plan || {};
    const used = r.startedAt && r.finishedAt ? (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000 : null;
    // stopping as soon as the race is decided leaves the rest of the budget unspent
    const saved = fmt.isNum(used) && fmt.isNum(v.decidedAtRound) ? Math.max(0, spec.budgetSeconds - used) : null;
    const item = (term, ...value) => [h('dt', {}, term), h('dd', {}, ...value)];
    fill(planBox, h('h2', {}, 'Plan'), h('dl', {class: 'spec', id: 'recommendation-plan-list'},
      // the load's own IO model, threads, transport and execution are not used: the candidates set them
      item('Load', fmt.specLine({...l, ioModel: null, transport: null, execution: null}),
        l.load === 'open' ? ` · open at ${fmt.int(l.rate)} messages/s` : ' · closed',
        ` · ${fmt.seconds(l.warmupSeconds)} warm-up and ${fmt.seconds(l.seconds)} measured per repetition`),
      item('Budget', fmt.seconds(spec.budgetSeconds), fmt.isNum(used) ? `, ${fmt.seconds(used)} used` : '',
        fmt.isNum(saved) ? `, ${fmt.seconds(saved)} saved by stopping when decided` : ''),
      item('Rounds', h('span', {id: 'recommendation-rounds'}, `${fmt.int(v.rounds ?? 0)} run of at most `
        + fmt.int(plan.maxRounds)), fmt.isNum(v.decidedAtRound) ? `; decided after round ${v.decidedAtRound}` : ''),
      item('Looks', fmt.isNum(plan.firstLook) ? `after every round from round ${plan.firstLook}` : '–'),
      item('Test level', `${fmt.sig(plan.testAlpha)} each: alpha ${fmt.sig(plan.alpha)} ÷ `
        + `${fmt.int(plan.testsPerLook)} test${plan.testsPerLook === 1 ? '' : 's'}; confidence sequences hold at `
        + 'every look, so looking costs no share of alpha'),
      item('Noise floor', fmt.isNum(plan.noise) ? `${fmt.pct(plan.noise * 100)} per round's log ratio`
        + (plan.soloNoise > 0 ? `, ${fmt.pct(plan.soloNoise * 100)} between one-thread candidates` : '')
        + ', or the data\'s own spread where larger' : '–'),
      item('Candidates', `${fmt.int(plan.candidates)}, about ${fmt.seconds(plan.repetitionSeconds)} a repetition`),
      item('Minimum effect', fmt.isNum(spec.minimumEffect) ? fmt.pct(spec.minimumEffect * 100) : '–'),
      fmt.isNum(spec.p99BoundUs) ? item('p99 bound', fmt.us(spec.p99BoundUs)) : null,
      item('Created', fmt.time(r.createdAt))));
  }

  function renderCandidates(entries) {
    if (!Array.isArray(entries) || !entries.length) {
      fill(candidatesBox);
      return;
    }
    const rows = entries.map(e => [
      {value: e.label, header: true},
      h('span', {class: `badge candidate-${e.status}`}, e.status),
      {value: `${fmt.int(e.repetitions)} (${fmt.int(e.clean)})`, class: 'num'},
      {value: fmt.stat(e.roundTripsPerSecond, fmt.int), class: 'num'},
      {value: fmt.stat(e.p99Us, fmt.us), class: 'num'},
      {value: fmt.sig(e.cpuUsPerRoundTrip), class: 'num'},
      {value: fmt.sig(e.peakRssMiB), class: 'num'},
      e.reason ? h('span', {class: e.status === 'failed' ? 'error-text' : null}, e.reason) : '',
    ]);
    fill(candidatesBox, h('h2', {}, 'Candidates'), h('div', {class: 'scroll'}, table(
      ['Candidate', 'Status', 'Repetitions (clean)', 'Round trips/s median [min, max]', 'p99 median [min, max]',
        'CPU µs per round trip', 'Peak RSS MiB', 'Why eliminated'],
      rows, {className: 'candidates', caption: 'Every candidate, in the order raced; figures over its clean '
        + 'repetitions (passed, no warning)'})));
  }

  const live = followLive(root, {base, id, noun: 'recommendation', pollMs: 2000, render,
    listHref: '#/recommendations'});
  return live.dispose;
}
