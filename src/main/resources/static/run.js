// One run: followed live to its summary, charts, where its CPU time went, report, repetitions, self-checks and
// environment. This module composes the view (its sections' boxes, following the run, leaving it); each section
// renders in run/.

import {h, fill, notice} from './dom.js';
import * as fmt from './format.js';
import {isFinished, badge, heading, followLive} from './view.js';
import {renderActions} from './run/actions.js';
import {renderProgress} from './run/progress.js';
import {renderSpec} from './run/spec.js';
import {renderSummary} from './run/summary.js';
import {renderCharts} from './run/charts.js';
import {renderLiveTimeline, renderTimelines} from './run/timeline.js';
import {renderProfile} from './run/profile.js';
import {renderReport} from './run/report.js';
import {renderRepetitions} from './run/repetitions.js';
import {renderAcrossHosts} from './run/hosts.js';
import {renderEnvironment} from './run/environment.js';

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
  const profileBox = h('section', {id: 'run-profile'});
  const reportBox = h('section', {id: 'run-report'});
  const repsBox = h('section', {id: 'run-repetitions'});
  const hostsBox = h('section', {id: 'run-hosts'});
  const envBox = h('section', {id: 'run-environment'});
  fill(root, title, actions, progressBox, errorBox, specBox, summaryBox, chartsBox, timelineBox, profileBox, reportBox,
    repsBox, hostsBox, envBox);

  // what this view has drawn so far, so that an update redraws only what changed
  const shown = {repetitions: -1, finished: false, liveIntervals: ''};

  function render(r) {
    if (live.disposed) return;
    document.title = `Run ${fmt.shortId(r.id)} (${r.status}) · loopbench`;
    root.dataset.status = r.status;
    fill(statusBadge, badge(r.status));
    renderActions(actions, r, {base, render, errorBox});
    renderProgress(progressBox, r);
    if (!isFinished(r.status)) {
      shown.liveIntervals = renderLiveTimeline(timelineBox, base, r.progress?.timeline, shown.liveIntervals);
    }
    fill(errorBox, r.error ? notice(r.status === 'cancelled' ? 'warn' : 'error',
      `${r.status === 'cancelled' ? 'Cancelled' : 'Failed'}:`, r.error) : null);
    if (!specBox.firstChild) renderSpec(specBox, r);
    if (r.repetitions.length !== shown.repetitions || (isFinished(r.status) && !shown.finished)) {
      shown.repetitions = r.repetitions.length;
      renderRepetitions(repsBox, r);
      renderProfile(profileBox, r);
      renderAcrossHosts(hostsBox, r);
      renderEnvironment(envBox, r);
    }
    if (isFinished(r.status) && !shown.finished) {
      shown.finished = true;
      renderSummary(summaryBox, r);
      renderCharts(chartsBox, base, r);
      renderTimelines(timelineBox, base, r);
      renderReport(reportBox, base, live, r);
    }
  }

  const live = followLive(root, {base, id, noun: 'run', pollMs: 1000, render});
  return live.dispose;
}
