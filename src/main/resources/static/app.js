// loopbench's web page: runs, the run form, live progress, results, comparison, matrices and recommendations, one
// module per view.
// Plain ES modules, no framework and nothing from the network but this service's own API.

import {h, fill, notice} from './dom.js';
import {getJson, describe, setViewSignal} from './api.js';
import {heading, link} from './view.js';
import {runsView} from './runs.js';
import {runView} from './run.js';
import {compareView} from './compare.js';
import {matrixView} from './matrix.js';
import {recommendationsView} from './recommendations.js';
import {recommendationView} from './recommendation.js';
import {newRunView, newMatrixView, newRecommendationView} from './forms.js';
import {agentsView} from './agents.js';

const main = document.getElementById('main');

// ---- page-wide error capture: a script error is shown, never silently swallowed -----------------------------

function pageError(message) {
  fill(document.getElementById('page-errors'),
    notice('error', 'Something went wrong in this page:', message, ' — reload the page to start again.'));
}
window.addEventListener('error', e => pageError(e.message || String(e.error)));
window.addEventListener('unhandledrejection', e => {
  if (e.reason?.name !== 'AbortError') pageError(describe(e.reason)); // a left view's read, aborted on purpose
});

// ---- router -------------------------------------------------------------------------------------------------

const routes = [
  [/^\/?$/, runsView, 'Runs', 'runs'],
  [/^\/runs\/new$/, newRunView, 'Start a run', 'new-run'],
  [/^\/runs\/([^/]+)$/, runView, 'Run', 'runs'],
  [/^\/compare$/, compareView, 'Compare', 'compare'],
  [/^\/matrices\/new$/, newMatrixView, 'Start a matrix', 'new-matrix'],
  [/^\/matrices\/([^/]+)$/, matrixView, 'Matrix', 'runs'],
  [/^\/recommendations$/, recommendationsView, 'Recommendations', 'recommendations'],
  [/^\/recommendations\/new$/, newRecommendationView, 'Get a recommendation', 'new-recommendation'],
  [/^\/recommendations\/([^/]+)$/, recommendationView, 'Recommendation', 'recommendations'],
  [/^\/agents$/, agentsView, 'Agents', 'agents'],
];

let dispose = () => {};
let viewReads = new AbortController();

function route() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  const params = new URLSearchParams(query);
  dispose();
  dispose = () => {};
  // the view left takes its reads still on the way with it
  viewReads.abort();
  viewReads = new AbortController();
  setViewSignal(viewReads.signal);
  const view = h('div', {class: 'view'});
  fill(main, view);
  for (const [pattern, fn, title, nav] of routes) {
    const m = pattern.exec(path);
    if (!m) continue;
    document.title = `${title} · loopbench`;
    for (const a of document.querySelectorAll('nav a')) {
      if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    dispose = fn(view, params, ...m.slice(1).map(decodeURIComponent)) || (() => {});
    view.querySelector('h1')?.focus({preventScroll: true});
    return;
  }
  fill(view, heading('Not found'), h('p', {}, 'No page at this address. ', link('#/', 'Back to the runs.')));
}

async function footer() {
  const el = document.getElementById('system');
  try {
    const s = await getJson('/api/system', {signal: null});
    fill(el, `Host: ${s.cpuModel ?? '?'}, ${s.logicalCpus ?? '?'} logical CPUs · ${s.os ?? ''} ${s.kernel ?? ''} · `
      + `Java ${s.javaVersion ?? '?'} · Netty ${s.nettyVersion ?? '?'} · `, link('/swagger-ui.html', 'API'));
  } catch (e) {
    fill(el, `The service's /api/system did not answer (${describe(e)}).`);
  }
}

window.addEventListener('hashchange', route);
route();
footer();
