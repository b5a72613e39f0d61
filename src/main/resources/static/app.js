// loopbench's web page: runs, the run form, live progress, results, comparison and matrices.
// Plain ES modules, no framework and nothing from the network but this service's own API.

import {h, fill, table, notice} from './dom.js';
import {getJson, postJson, del, probe, describe, follow, ApiError} from './api.js';
import * as fmt from './format.js';
import {SchemaForm, requestSchema, requestExamples, resolve} from './form.js';

const main = document.getElementById('main');
const FINISHED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const isFinished = status => FINISHED.has(status);
const REFRESH_MS = 2000;

// ---- page-wide error capture: a script error is shown, never silently swallowed -----------------------------

window.loopbenchErrors = [];
function pageError(message) {
  window.loopbenchErrors.push(message);
  fill(document.getElementById('page-errors'),
    notice('error', 'Something went wrong in this page:', message, ' — reload the page to start again.'));
}
window.addEventListener('error', e => pageError(e.message || String(e.error)));
window.addEventListener('unhandledrejection', e => pageError(describe(e.reason)));

// ---- the API description, read once ---------------------------------------------------------------------

let apiDocsPromise = null;
function apiDocs() {
  if (!apiDocsPromise) {
    apiDocsPromise = getJson('/v3/api-docs').catch(e => {
      apiDocsPromise = null; // try again next time
      throw e;
    });
  }
  return apiDocsPromise;
}

function enumOf(docs, path, param, fallback) {
  const p = docs?.paths?.[path]?.get?.parameters?.find(x => x.name === param);
  return resolve(docs, p?.schema)?.enum || fallback;
}

// ---- small shared pieces ------------------------------------------------------------------------------------

function badge(status) {
  return h('span', {class: `badge status-${status || 'unknown'}`}, status || 'unknown');
}

function heading(text, ...extra) {
  return h('h1', {tabindex: '-1'}, text, ...extra);
}

/** After a view replaced its heading, keeps keyboard focus at the top of the view rather than lost on <body>. */
function refocus(root) {
  if (document.activeElement === document.body || !document.activeElement) {
    root.querySelector('h1')?.focus({preventScroll: true});
  }
}

function errorNotice(e, what) {
  if (e instanceof ApiError && e.missingEndpoint) {
    return notice('warn', `${what} is not available from this service yet.`,
      `${e.url} answered ${e.status}; it comes with a newer version of the service.`);
  }
  return notice('error', `${what} failed.`, describe(e));
}

function link(href, text, attrs = {}) {
  return h('a', {href, ...attrs}, text);
}

/** Polls fn every ms milliseconds (pausing while the page is hidden) until the returned stop() is called. */
function every(ms, fn) {
  let timer = null;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    if (!document.hidden) {
      try {
        await fn();
      } catch (e) {
        if (e.name !== 'AbortError') console.warn(e);
      }
    }
    if (!stopped) timer = setTimeout(tick, ms);
  };
  timer = setTimeout(tick, ms);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Shows a problem from a form submission: violations next to their fields, anything else at the top. */
function showSubmitProblem(form, summary, e, what) {
  const problem = e instanceof ApiError ? e.problem : {};
  let placed = [];
  let unplaced = [];
  if (Array.isArray(problem.violations) && problem.violations.length) {
    unplaced = form.showErrors(problem.violations.map(v => ({field: v.field, message: v.message
        || `${v.field} = ${v.value}: allowed ${v.allowed}`})));
    placed = problem.violations.filter(v => !unplaced.includes(v));
  } else if (e instanceof ApiError && e.status === 400 && problem.detail) {
    // unreadable body: "field 'clients': 'many' is not a value of type integer" names the field
    const m = /field '([^']+)'/.exec(problem.detail);
    if (m && form.fieldFor(m[1])) form.showErrors([{field: m[1], message: problem.detail}]);
    else form.clearErrors();
  } else {
    form.clearErrors();
  }
  const items = [];
  for (const v of unplaced) items.push(h('li', {}, v.message || String(v.field)));
  if (placed.length) {
    items.push(h('li', {}, `${placed.length === 1 ? 'One value is' : `${placed.length} values are`} not `
      + 'allowed; each is explained next to its field: ',
    placed.map((v, i) => [i ? ', ' : '', link(`#${form.inputId(v.field)}`, String(v.field), {
      onclick: ev => {
        ev.preventDefault();
        document.getElementById(form.inputId(v.field))?.focus();
      }})])));
  }
  const detail = e instanceof ApiError && e.missingEndpoint
    ? `${e.url} answered ${e.status}: this service does not offer it yet.`
    : !placed.length && !unplaced.length ? describe(e) : null;
  const retry = e instanceof ApiError && e.retryAfter ? ` Try again in ${e.retryAfter} s.` : '';
  fill(summary, h('div', {class: 'notice notice-error', role: 'alert'},
    h('strong', {}, `${what} was not started.`), detail ? ` ${detail}${retry}` : retry,
    items.length ? h('ul', {}, items) : null));
  summary.hidden = false;
  if (!placed.length) summary.focus();
}

// ---- views ----------------------------------------------------------------------------------------------------

const STATUS_FALLBACK = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'];

/**
 * Makes a form POST its values to url: values the form itself refuses are shown without sending; a created run or
 * matrix opens its view (#/route/id); the service's problem details are shown next to their fields.
 */
function submitsTo(el, form, summary, submit, url, route, what) {
  el.addEventListener('submit', async ev => {
    ev.preventDefault();
    summary.hidden = true;
    const {body, errors} = form.read();
    if (errors.size) {
      form.showErrors([...errors].map(([field, message]) => ({field, message})));
      return;
    }
    const label = submit.textContent;
    submit.disabled = true;
    submit.textContent = 'Starting…';
    try {
      const created = await postJson(url, body);
      location.hash = `#/${route}/${encodeURIComponent(created.id)}`;
    } catch (e) {
      showSubmitProblem(form, summary, e, what);
    } finally {
      submit.disabled = false;
      submit.textContent = label;
    }
  });
}

function homeView(root) {
  const state = {status: '', protocol: '', page: 0};
  const runsBox = h('div', {id: 'runs-list', 'aria-live': 'off'}, h('p', {class: 'muted'}, 'Loading runs…'));
  const matricesBox = h('div', {id: 'matrices-list'}, h('p', {class: 'muted'}, 'Loading matrices…'));
  const statusSel = h('select', {id: 'filter-status', onchange: () => {
    state.status = statusSel.value;
    state.page = 0;
    loadRuns();
  }}, h('option', {value: ''}, 'any'));
  const protocolSel = h('select', {id: 'filter-protocol', onchange: () => {
    state.protocol = protocolSel.value;
    state.page = 0;
    loadRuns();
  }}, h('option', {value: ''}, 'any'));
  apiDocs().then(docs => {
    for (const s of enumOf(docs, '/api/runs', 'status', STATUS_FALLBACK)) statusSel.append(h('option', {value: s}, s));
    for (const p of enumOf(docs, '/api/runs', 'protocol', ['tcp', 'udp'])) protocolSel.append(h('option', {value: p}, p));
  }, () => {
    for (const s of STATUS_FALLBACK) statusSel.append(h('option', {value: s}, s));
  });

  fill(root,
    heading('Runs'),
    h('p', {class: 'lead'}, 'Newest first; refreshed every two seconds. ',
      link('#/runs/new', 'Start a run'), ' · ', link('#/compare', 'compare two runs'), ' · ',
      link('#/matrices/new', 'start a matrix'), '.'),
    h('div', {class: 'filters'},
      h('label', {for: 'filter-status'}, 'Status '), statusSel, ' ',
      h('label', {for: 'filter-protocol'}, 'Protocol '), protocolSel),
    runsBox,
    h('h2', {}, 'Matrices'),
    matricesBox);

  let runsRequest = 0;
  async function loadRuns() {
    const mine = ++runsRequest;
    const q = new URLSearchParams({limit: '20', page: String(state.page)});
    if (state.status) q.set('status', state.status);
    if (state.protocol) q.set('protocol', state.protocol);
    let page;
    try {
      page = await getJson(`/api/runs?${q}`);
    } catch (e) {
      if (mine === runsRequest) fill(runsBox, errorNotice(e, 'Listing runs'));
      return;
    }
    if (mine !== runsRequest) return;
    renderRuns(page);
  }

  function renderRuns(page) {
    if (!page.items?.length) {
      fill(runsBox, h('p', {class: 'muted', id: 'runs-empty'}, page.total
        ? 'No runs on this page.' : state.status || state.protocol ? 'No run matches these filters.'
          : 'No runs yet. ', !page.total && !state.status && !state.protocol
        ? link('#/runs/new', 'Start the first one.') : null));
      return;
    }
    const rows = page.items.map(r => [
      fmt.time(r.createdAt),
      link(`#/runs/${encodeURIComponent(r.id)}`, fmt.shortId(r.id), {class: 'mono', title: r.id}),
      badge(r.status),
      fmt.specLine(r.spec),
      r.isolation,
      {value: r.roundTripsPerSecond ? fmt.int(r.roundTripsPerSecond.median) : '–', class: 'num'},
      {value: r.rttP99Us ? fmt.us(r.rttP99Us.median) : '–', class: 'num'},
      r.progress ? `repetition ${r.progress.repetition} of ${r.progress.repetitions} · ${r.progress.phase}`
        : r.error ? h('span', {class: r.status === 'cancelled' ? 'muted' : 'error-text', title: r.error},
          truncate(r.error, 80)) : '',
    ]);
    const pager = h('p', {class: 'pager'},
      `${fmt.int(page.total)} run${page.total === 1 ? '' : 's'}`,
      page.total > page.limit ? ` · page ${page.page + 1} of ${Math.ceil(page.total / page.limit)} ` : ' ',
      page.page > 0 ? h('button', {type: 'button', onclick: () => {
        state.page--;
        loadRuns();
      }}, 'Newer') : null, ' ',
      page.nextPage != null ? h('button', {type: 'button', onclick: () => {
        state.page = page.nextPage;
        loadRuns();
      }}, 'Older') : null);
    fill(runsBox, h('div', {class: 'scroll'}, table(
      ['Created', 'Run', 'Status', 'Load', 'Isolation', 'Round trips/s (median)', 'RTT p99 (median)', ''],
      rows, {className: 'runs', caption: 'Runs, newest first'})), pager);
  }

  let matricesMissing = false;
  async function loadMatrices() {
    if (matricesMissing) return;
    let page;
    try {
      page = await getJson('/api/matrices?limit=20');
    } catch (e) {
      matricesMissing = e instanceof ApiError && e.missingEndpoint;
      fill(matricesBox, errorNotice(e, 'Listing matrices'));
      return;
    }
    if (!page.items?.length) {
      fill(matricesBox, h('p', {class: 'muted'}, 'No matrices yet. ', link('#/matrices/new', 'Start one.')));
      return;
    }
    fill(matricesBox, h('div', {class: 'scroll'}, table(['Created', 'Matrix', 'Status', 'Cases done', ''],
      page.items.map(m => [
        fmt.time(m.createdAt),
        link(`#/matrices/${encodeURIComponent(m.id)}`, fmt.shortId(m.id), {class: 'mono', title: m.id}),
        badge(m.status),
        {value: fmt.isNum(m.cases) ? `${fmt.int(m.completedCases)} of ${fmt.int(m.cases)}` : '–', class: 'num'},
        m.progress ? matrixProgressText(m.progress)
          : m.error ? h('span', {class: m.status === 'cancelled' ? 'muted' : 'error-text', title: m.error},
            truncate(m.error, 80)) : '',
      ]), {className: 'matrices', caption: 'Matrices, newest first'})));
  }

  loadRuns();
  loadMatrices();
  const stop = every(REFRESH_MS, () => Promise.all([loadRuns(), loadMatrices()]));
  return stop;
}

function truncate(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

// ---- the run form -------------------------------------------------------------------------------------------

function newRunView(root, params) {
  fill(root, heading('Start a run'), h('p', {class: 'muted'}, 'Reading the fields from the API description…'));
  let disposed = false;
  (async () => {
    let docs;
    try {
      docs = await apiDocs();
    } catch (e) {
      fill(root, heading('Start a run'), notice('error', 'The form cannot be built:',
        `the API description at /v3/api-docs could not be read (${describe(e)}). It lists the fields, defaults and `
        + 'ranges the form shows.'));
      return;
    }
    if (disposed) return;
    const schema = requestSchema(docs, '/api/runs', 'RunRequest');
    if (!schema) {
      fill(root, heading('Start a run'), notice('error', 'The form cannot be built:',
        'the API description has no request schema for POST /api/runs.'));
      return;
    }
    const form = new SchemaForm(docs, schema, {idPrefix: 'run'});
    const examples = requestExamples(docs, '/api/runs');
    const summary = h('div', {id: 'run-form-problems', class: 'form-problems', tabindex: '-1', hidden: true});
    const submit = h('button', {type: 'submit', id: 'run-submit', class: 'primary'}, 'Start run');
    const exampleSel = h('select', {id: 'run-example', onchange: () => {
      const ex = examples.find(x => x.name === exampleSel.value);
      form.setValues(ex ? ex.value : {});
      summary.hidden = true;
    }}, h('option', {value: ''}, 'defaults'), examples.map(ex => h('option', {value: ex.name}, ex.summary)));
    const el = h('form', {id: 'run-form', novalidate: true, 'aria-describedby': 'run-form-intro'},
      h('p', {id: 'run-form-intro', class: 'lead'}, schema.description || '',
        ' Every field shows its default and allowed range; an empty field takes its default.'),
      examples.length ? h('p', {class: 'examples'}, h('label', {for: 'run-example'}, 'Start from '), exampleSel)
        : null,
      summary,
      form.element,
      h('div', {class: 'actions'}, submit, ' ',
        h('button', {type: 'button', onclick: () => {
          exampleSel.value = '';
          form.reset();
          summary.hidden = true;
        }}, 'Reset to defaults')));
    submitsTo(el, form, summary, submit, '/api/runs', 'runs', 'The run');
    fill(root, heading('Start a run'), el);
    refocus(root);
    if (params.get('from')) {
      try {
        const run = await getJson(`/api/runs/${encodeURIComponent(params.get('from'))}`);
        form.setValues({...run.spec, isolation: run.isolation});
      } catch (e) {
        root.insertBefore(errorNotice(e, 'Reading the run to copy'), el);
      }
    }
  })();
  return () => {
    disposed = true;
  };
}

// ---- one run ------------------------------------------------------------------------------------------------

/**
 * Loads a run or a matrix, renders it, then follows it live over SSE until it finishes, polling every pollMs
 * instead if the stream is lost. Returns {disposed, dispose}: views check `disposed` before they touch the page.
 */
function followLive(root, {base, id, noun, pollMs, render}) {
  const live = {disposed: false};
  let stopStream = () => {};
  let stopPoll = () => {};

  function startPolling() {
    stopPoll();
    stopPoll = every(pollMs, async () => {
      const x = await getJson(base);
      render(x);
      if (isFinished(x.status)) stopPoll();
    });
  }

  (async () => {
    let x;
    try {
      x = await getJson(base);
    } catch (e) {
      const title = noun[0].toUpperCase() + noun.slice(1) + ' ';
      fill(root, heading(title, h('span', {class: 'mono'}, fmt.shortId(id))),
        e instanceof ApiError && e.status === 404 && !e.missingEndpoint
          ? notice('error', `No such ${noun}.`, describe(e), ' ', link('#/', 'Back to the list.'))
          : errorNotice(e, `Reading the ${noun}`));
      return;
    }
    render(x);
    if (!isFinished(x.status) && !live.disposed) {
      stopStream = follow(`${base}/events`, {onUpdate: render, onFinished: render, onLost: startPolling});
    }
  })();

  live.dispose = () => {
    live.disposed = true;
    stopStream();
    stopPoll();
  };
  return live;
}

function progressText(p, status) {
  if (status === 'queued' || !p) return 'Queued: it starts when the runs ahead of it have finished.';
  const rep = p.repetition > 0 ? `Repetition ${p.repetition} of ${p.repetitions}` : `Starting (${p.repetitions} `
    + `repetition${p.repetitions === 1 ? '' : 's'})`;
  return `${rep} · ${p.phase} · ${fmt.seconds(p.elapsedSeconds)} elapsed · about ${fmt.seconds(p.remainingSeconds)} `
    + 'left';
}

function runView(root, params, id) {
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
  const reportBox = h('section', {id: 'run-report'});
  const repsBox = h('section', {id: 'run-repetitions'});
  const envBox = h('section', {id: 'run-environment'});
  fill(root, title, actions, progressBox, errorBox, specBox, summaryBox, chartsBox, reportBox, repsBox, envBox);
  root.dataset.progressSeen = '0';

  let lastRepetitions = -1;
  let finishedShown = false;

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
      if (r.status === 'running' && p) root.dataset.progressSeen = String(Number(root.dataset.progressSeen) + 1);
    } else {
      progressBox.hidden = true;
    }
    fill(errorBox, r.error ? notice(r.status === 'cancelled' ? 'warn' : 'error',
      `${r.status === 'cancelled' ? 'Cancelled' : 'Failed'}:`, r.error) : null);
    if (!specBox.firstChild) renderSpec(r);
    if (r.repetitions.length !== lastRepetitions || (isFinished(r.status) && !finishedShown)) {
      lastRepetitions = r.repetitions.length;
      renderRepetitions(r);
      renderEnvironment(r);
    }
    if (isFinished(r.status) && !finishedShown) {
      finishedShown = true;
      renderSummary(r);
      renderCharts(r);
      renderReport(r);
    }
  }

  function renderActions(r) {
    fill(actions,
      !isFinished(r.status) ? h('button', {type: 'button', id: 'run-cancel', onclick: async ev => {
        ev.target.disabled = true;
        try {
          render(await postJson(`${base}/cancel`));
        } catch (e) {
          fill(errorBox, errorNotice(e, 'Cancelling'));
        }
      }}, 'Cancel run') : null, ' ',
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
      h('p', {class: 'muted'}, `${fmt.specLine(spec)} · ${r.isolation} · created ${fmt.time(r.createdAt)}`,
        r.estimatedSeconds ? ` · estimated ${fmt.seconds(r.estimatedSeconds)}` : ''),
      h('details', {}, h('summary', {}, 'Every field'),
        h('dl', {class: 'spec'}, Object.entries(spec).map(([k, v]) => [h('dt', {}, h('code', {}, k)),
          h('dd', {}, fmt.compact(v))]))));
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
      ['Little\'s law ratio', fmt.stat(s.littlesLawRatio, fixed3)],
      ['Warm-up', fmt.stat(s.warmupSeconds, fmt.seconds)],
    ].map(([k, v, pooled]) => [{value: k, header: true}, {value: v, class: 'num'},
      {value: pooled ?? '', class: 'num'}]);
    const warnings = Array.isArray(s.warnings) ? s.warnings : [];
    fill(summaryBox, h('h2', {}, 'Summary'),
      table(['Metric', 'Median [min, max]', 'Pooled'], rows, {className: 'summary', caption:
        `Over ${s.repetitions} repetition${s.repetitions === 1 ? '' : 's'}; latencies are medians of each `
        + 'repetition\'s percentiles, and "pooled" gives the percentiles of every repetition\'s observations '
        + 'merged into one histogram.'}),
      warnings.length ? h('div', {id: 'run-warnings'}, notice('warn', 'Warnings: these figures are doubtful.',
        h('ul', {}, warnings.map(w => h('li', {}, w))))) : null,
      s.jitCompilations == null ? notice('info', 'Recorded before the self-checks:', 'JIT activity, fairness and '
        + 'Little\'s law were not measured, so nothing here says the measured phases were steady and fair.') : null);
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

  function renderReport(r) {
    const html = `${base}/report?format=html`;
    const md = `${base}/report?format=md`;
    fill(reportBox, h('h2', {}, 'Report'), h('p', {class: 'muted'}, 'Looking for the report…'));
    probe(html).then(status => {
      if (live.disposed) return;
      if (status < 200 || status >= 300) {
        fill(reportBox, h('h2', {}, 'Report'), notice('warn', 'The report is not available from this service yet.',
          `${html} answered ${status || 'nothing'}.`));
        return;
      }
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
    const rows = r.repetitions.map(x => [
      {value: String(x.repetition), header: true},
      x.ok ? 'ok' : h('span', {class: 'error-text'}, 'failed'),
      {value: fmt.int(x.roundTripsPerSecond), class: 'num'},
      {value: fmt.sig(x.payloadMibPerSecond), class: 'num'},
      {value: fmt.us(x.latency?.p50Us), class: 'num'},
      {value: fmt.us(x.latency?.p99Us), class: 'num'},
      {value: fmt.us(x.latency?.p999Us), class: 'num'},
      {value: fmt.us(x.latency?.maxUs), class: 'num'},
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
      {value: x.littlesLaw ? x.littlesLaw.ratio.toFixed(3) : 'n/a', class: 'num'},
      fmt.warmup(x.warmup),
      ...(open ? [
        {value: x.openLoad?.sendLag ? `${fmt.us(x.openLoad.sendLag.p50Us)} / ${fmt.us(x.openLoad.sendLag.p99Us)}`
          : '–', class: 'num'},
        {value: x.openLoad ? `${fmt.int(x.openLoad.lateMessages)} / ${fmt.int(x.openLoad.droppedMessages)} of `
          + fmt.int(x.openLoad.intendedMessages) : '–', class: 'num'}] : []),
      Array.isArray(x.warnings) && x.warnings.length ? h('ul', {class: 'warnings'},
        x.warnings.map(w => h('li', {}, w))) : 'none',
    ]);
    fill(repsBox, h('h2', {}, 'Repetitions'), h('div', {class: 'scroll'}, table(
      ['#', 'Outcome', 'Round trips/s', 'MiB/s', 'p50', 'p99', 'p99.9', 'max', 'CPU', 'Peak RSS', 'Errors', ''],
      rows, {className: 'repetitions'})),
    h('h3', {}, 'Self-checks'), h('div', {class: 'scroll', id: 'run-checks'}, table(
      ['#', 'JIT (measured phase)', 'Fairness', 'Little\'s law ratio', 'Warm-up',
        ...(open ? ['Send lag p50 / p99', 'Late / dropped'] : []), 'Warnings'],
      checks, {className: 'checks', caption: 'JIT-quiet: no deoptimization and under 1 ms of compilation. '
        + 'Fairness: Jain\'s index of validated echoes per client (1 is even). Little\'s law: round trips/s × '
        + 'mean RTT ÷ (clients × window), closed sliding-window load only; more than 5 % off is a warning.'})));
  }

  function renderEnvironment(r) {
    const first = r.repetitions.find(x => x.transport) || {};
    const env = r.workerEnvironment;
    const items = [
      ['Transport', r.transport || first.transport],
      ['Channels', first.serverChannel ? `${first.serverChannel} / ${first.clientChannel}` : null],
      ['Connections on one thread', first.connectionsOnOneThread],
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

/** An <img> of an SVG chart; when it does not load, a notice that says what the service answered. */
function chart(src, caption, id) {
  const img = h('img', {src, alt: caption, id, class: 'chart-img'});
  const fig = h('figure', {class: 'chart'}, h('a', {href: src, target: '_blank', rel: 'noopener',
    title: 'Open the chart at full size'}, img), h('figcaption', {}, caption));
  img.addEventListener('error', async () => {
    const status = await probe(src);
    fig.classList.add('missing');
    fill(fig, notice('warn', `${caption}: not available.`, status === 404
      ? `${src} answered 404: this service does not draw charts yet, or has no data for them.`
      : `${src} answered ${status || 'nothing'}.`));
  }, {once: true});
  return fig;
}

// ---- comparison ----------------------------------------------------------------------------------------------

const RATIO_KEYS = new Set(['throughputRatio', 'p99Ratio', 'throughputRangesOverlap', 'p99RangesOverlap',
  'verdict', 'warnings']);

function compareView(root, params) {
  const baseline = h('select', {id: 'compare-baseline', name: 'baseline', required: true});
  const candidate = h('select', {id: 'compare-candidate', name: 'candidate', required: true});
  const result = h('section', {id: 'compare-result', 'aria-live': 'polite'});
  const formEl = h('form', {id: 'compare-form', class: 'compare-form'},
    h('div', {class: 'field'}, h('label', {for: 'compare-baseline'}, 'Baseline'), baseline),
    h('div', {class: 'field'}, h('label', {for: 'compare-candidate'}, 'Candidate'), candidate),
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Compare')));
  fill(root, heading('Compare'),
    h('p', {class: 'lead'}, 'Each ratio is candidate ÷ baseline: a throughput ratio above 1 is faster, a p99 ratio '
      + 'below 1 is a lower tail latency. Where the two min–max ranges over repetitions overlap, the difference is '
      + 'within the spread of the repetitions and is not marked. Where either side carries warnings (a measured '
      + 'phase not JIT-quiet, Little\'s law missed, a capped warm-up), the ratio is not clean.'),
    formEl, result);

  async function loadChoices() {
    const [runs, matrices] = await Promise.allSettled([
      getJson('/api/runs?status=succeeded&limit=200'), getJson('/api/matrices?limit=200')]);
    for (const sel of [baseline, candidate]) {
      fill(sel, h('option', {value: ''}, '— choose —'));
      if (runs.status === 'fulfilled') {
        sel.append(h('optgroup', {label: 'Succeeded runs'}, runs.value.items.map(r => h('option', {value: r.id},
          `${fmt.specLine(r.spec)} · ${r.roundTripsPerSecond ? `${fmt.int(r.roundTripsPerSecond.median)} rt/s · `
            : ''}${fmt.time(r.createdAt)} · ${fmt.shortId(r.id)}`))));
      }
      if (matrices.status === 'fulfilled' && matrices.value.items?.length) {
        sel.append(h('optgroup', {label: 'Matrices'}, matrices.value.items.map(m => h('option', {value: m.id},
          `matrix · ${fmt.isNum(m.cases) ? `${m.cases} cases · ` : ''}${m.status} · ${fmt.time(m.createdAt)} · `
          + fmt.shortId(m.id)))));
      }
    }
    if (runs.status === 'rejected') result.before(errorNotice(runs.reason, 'Listing runs'));
    for (const [sel, name] of [[baseline, 'baseline'], [candidate, 'candidate']]) {
      const v = params.get(name);
      if (v && ![...sel.options].some(o => o.value === v)) sel.append(h('option', {value: v}, v));
      if (v) sel.value = v;
    }
  }

  async function compare() {
    if (!baseline.value || !candidate.value) {
      fill(result, notice('warn', 'Choose a baseline and a candidate.'));
      return;
    }
    fill(result, h('p', {class: 'muted'}, 'Comparing…'));
    const q = new URLSearchParams({baseline: baseline.value, candidate: candidate.value});
    let cmp;
    try {
      cmp = await getJson(`/api/compare?${q}`);
    } catch (e) {
      fill(result, errorNotice(e, 'The comparison'));
      return;
    }
    renderComparison(cmp);
  }

  function renderComparison(cmp) {
    const cases = Array.isArray(cmp?.cases) ? cmp.cases : [];
    const others = [
      Array.isArray(cmp?.unmatched) && cmp.unmatched.length ? h('div', {id: 'compare-unmatched'},
        h('h3', {}, 'Cases on one side only'), h('ul', {}, cmp.unmatched.map(x => h('li', {}, x)))) : null,
      Array.isArray(cmp?.failedCases) && cmp.failedCases.length ? h('div', {id: 'compare-failed'},
        h('h3', {}, 'Cases left out because a side failed'), h('ul', {}, cmp.failedCases.map(x => h('li', {}, x))))
        : null,
    ];
    if (!cases.length) {
      fill(result, notice('info', 'No cases to compare.', 'The two have no succeeded case in common.'), others);
      return;
    }
    const hasVerdict = cases.some(c => typeof c.verdict === 'string');
    const keys = [...new Set(cases.flatMap(c => Object.keys(c)).filter(k => !RATIO_KEYS.has(k)))];
    const ratioCell = (x, overlap, higherIsBetter) => {
      let cls = 'num';
      let note = '';
      if (overlap === false && fmt.isNum(x) && x !== 1) {
        const better = higherIsBetter ? x > 1 : x < 1;
        cls += better ? ' better' : ' worse';
        note = better ? ' better' : ' worse';
      } else if (overlap === true) {
        note = ' (ranges overlap)';
      }
      return {value: [fmt.ratio(x), note ? h('span', {class: 'note'}, note) : null], class: cls};
    };
    // a service without the self-checks sends no warnings: then the column is left out rather than read as clean
    const hasWarnings = cases.some(c => Array.isArray(c.warnings));
    const warningsCell = c => (c.warnings?.length ? {value: h('ul', {class: 'warnings'},
      c.warnings.map(w => h('li', {}, w))), class: 'warn-text'} : 'none');
    fill(result, h('h2', {}, 'Result'), h('div', {class: 'scroll'}, table(
      [...keys.map(k => fmt.humanize(k)), 'Throughput ratio', 'p99 ratio', hasVerdict ? 'Verdict' : null,
        hasWarnings ? 'Warnings' : null].filter(Boolean),
      cases.map(c => [...keys.map(k => fmt.compact(c[k])),
        ratioCell(c.throughputRatio, c.throughputRangesOverlap, true),
        ratioCell(c.p99Ratio, c.p99RangesOverlap, false), ...(hasVerdict ? [c.verdict ?? ''] : []),
        ...(hasWarnings ? [warningsCell(c)] : [])]),
      {className: 'compare', caption: 'Candidate ÷ baseline per case; a ratio whose sides carry warnings is not '
        + 'clean'})), others);
  }

  formEl.addEventListener('submit', ev => {
    ev.preventDefault();
    const q = new URLSearchParams({baseline: baseline.value, candidate: candidate.value});
    history.replaceState(null, '', `#/compare?${q}`);
    compare();
  });
  loadChoices().then(() => {
    if (params.get('baseline') && params.get('candidate')) compare();
  });
  return () => {};
}

// ---- matrices -------------------------------------------------------------------------------------------------

/** "Case 2 of 5 · repetition 1 · step 4 of 15 · 12 s elapsed · about 40 s left" from a matrix's progress. */
function matrixProgressText(p) {
  if (!p) return '';
  const caseNumber = p.caseNumber ?? p.case;
  const parts = [`Case ${caseNumber ?? '?'} of ${p.cases ?? '?'}`];
  if (fmt.isNum(p.repetition) && p.repetition > 0) parts.push(`repetition ${p.repetition}`);
  if (fmt.isNum(p.step) && fmt.isNum(p.steps)) parts.push(`step ${p.step} of ${p.steps}`);
  if (fmt.isNum(p.elapsedSeconds)) parts.push(`${fmt.seconds(p.elapsedSeconds)} elapsed`);
  if (fmt.isNum(p.etaSeconds)) parts.push(`about ${fmt.seconds(p.etaSeconds)} left`);
  return parts.join(' · ');
}

/** The contract of POST /api/matrices, for a service whose API description does not list it yet. */
function plannedMatrixSchema(docs) {
  const run = requestSchema(docs, '/api/runs', 'RunRequest')?.properties || {};
  const p = name => resolve(docs, run[name]) || {};
  const enumItems = name => (p(name).enum ? {type: 'string', enum: p(name).enum} : {type: 'string'});
  const intItems = name => ({type: 'integer', minimum: p(name).minimum, maximum: p(name).maximum});
  const scalar = name => {
    const {default: _unused, ...rest} = p(name);
    return {type: 'number', ...rest};
  };
  return {properties: {
    protocols: {type: 'array', items: enumItems('protocol'), description: 'Protocols.'},
    payloads: {type: 'array', items: intItems('payloadBytes'), description: 'Payload sizes, bytes per message.'},
    profiles: {type: 'array', items: {type: 'object', properties: {clients: {type: 'integer'},
      window: {type: 'integer'}}}, description: 'Load profiles: clients × window.'},
    ioModels: {type: 'array', items: enumItems('ioModel'), description: 'IO models.'},
    ioThreads: {type: 'array', items: intItems('ioThreads'), description: 'Event-loop thread counts.'},
    work: {type: 'array', items: intItems('work'), description: 'Xorshift iterations per echo.'},
    transports: {type: 'array', items: enumItems('transport'), description: 'Netty transports.'},
    windowModes: {type: 'array', items: enumItems('windowMode'), description: 'Window modes.'},
    seconds: {...scalar('seconds'), description: 'Measured phase in seconds, per repetition of each case.'},
    warmupSeconds: {...scalar('warmupSeconds'), description: 'Warm-up in seconds before each measured phase.'},
    repetitions: {...scalar('repetitions'), type: 'integer', description: 'Repetitions of each case.'},
    keepGoing: {type: 'boolean', description: 'Go on with the other cases when one fails.'},
  }};
}

/**
 * The service checks a matrix case by case and names a broken rule by the run specification's field; each of those
 * belongs to one of the matrix's lists.
 */
const CASE_FIELD_TO_MATRIX_LIST = {protocol: 'protocols', payloadBytes: 'payloads', clients: 'profiles',
  window: 'profiles', ioModel: 'ioModels', transport: 'transports', windowMode: 'windowModes',
  execution: 'executions', load: 'rates', rate: 'rates'};

function newMatrixView(root) {
  fill(root, heading('Start a matrix'), h('p', {class: 'muted'}, 'Reading the fields from the API description…'));
  let disposed = false;
  (async () => {
    let docs;
    try {
      docs = await apiDocs();
    } catch (e) {
      fill(root, heading('Start a matrix'), notice('error', 'The form cannot be built:', describe(e)));
      return;
    }
    if (disposed) return;
    const documented = requestSchema(docs, '/api/matrices', 'MatrixRequest');
    const schema = documented || plannedMatrixSchema(docs);
    const form = new SchemaForm(docs, schema, {idPrefix: 'matrix',
      defaultsNote: 'Empty: the service\'s default (arknet\'s baseline)', aliases: CASE_FIELD_TO_MATRIX_LIST});
    const summary = h('div', {id: 'matrix-form-problems', class: 'form-problems', tabindex: '-1', hidden: true});
    const submit = h('button', {type: 'submit', id: 'matrix-submit', class: 'primary'}, 'Start matrix');
    const casesLine = h('p', {id: 'matrix-cases', class: 'muted', 'aria-live': 'polite'});
    const el = h('form', {id: 'matrix-form', novalidate: true},
      h('p', {class: 'lead'}, schema.description || 'A matrix measures every combination of the lists below, one '
        + 'run per case, and reports them together. Leave a list empty for the service\'s default.'),
      documented ? null : notice('info', 'This service\'s API description does not list matrices yet;',
        'the form follows the planned contract, and starting a matrix tells you if the service does not offer it.'),
      summary, form.element, casesLine,
      h('div', {class: 'actions'}, submit, ' ',
        h('button', {type: 'button', onclick: () => {
          form.reset();
          summary.hidden = true;
          countCases();
        }}, 'Reset')));
    function countCases() {
      const {body} = form.read();
      const lists = [...form.fields.values()].filter(f => f.p.type === 'array');
      let n = 1;
      const defaulted = [];
      for (const f of lists) {
        if (Array.isArray(body[f.name])) n *= body[f.name].length;
        // an omitted rate list means closed load, not a default list of rates
        else if (f.name !== 'rates') defaulted.push(f.name);
      }
      casesLine.textContent = `${fmt.int(n)} case${n === 1 ? '' : 's'}`
        + (defaulted.length ? ` × the default lists of ${defaulted.join(', ')}` : '') + '.';
    }
    el.addEventListener('input', countCases);
    el.addEventListener('change', countCases);
    countCases();
    submitsTo(el, form, summary, submit, '/api/matrices', 'matrices', 'The matrix');
    fill(root, heading('Start a matrix'), el);
    refocus(root);
  })();
  return () => {
    disposed = true;
  };
}

function matrixView(root, params, id) {
  const base = `/api/matrices/${encodeURIComponent(id)}`;
  const statusBadge = h('span', {id: 'matrix-status', role: 'status'});
  const actions = h('p', {class: 'actions'});
  const progressBox = h('section', {id: 'matrix-progress', class: 'progress-box', hidden: true,
    'aria-label': 'Live progress'});
  const errorBox = h('div', {id: 'matrix-error'});
  const casesBox = h('section', {id: 'matrix-cases-table'});
  const chartsBox = h('section', {id: 'matrix-charts'});
  const reportBox = h('section', {id: 'matrix-report'});
  const specBox = h('p', {id: 'matrix-spec', class: 'muted'});
  fill(root, heading('Matrix ', h('span', {class: 'mono', title: id}, fmt.shortId(id)), ' ', statusBadge),
    actions, specBox, progressBox, errorBox, casesBox, chartsBox, reportBox);
  root.dataset.progressSeen = '0';
  let finishedShown = false;

  function render(m) {
    if (live.disposed) return;
    root.dataset.status = m.status;
    document.title = `Matrix ${fmt.shortId(id)} (${m.status}) · loopbench`;
    fill(statusBadge, badge(m.status));
    fill(specBox, matrixSpecLine(m));
    fill(actions, !isFinished(m.status) ? h('button', {type: 'button', onclick: async ev => {
      ev.target.disabled = true;
      try {
        render(await postJson(`${base}/cancel`));
      } catch (e) {
        fill(errorBox, errorNotice(e, 'Cancelling'));
      }
    }}, 'Cancel matrix') : null, !isFinished(m.status) ? ' · ' : null,
    link(`#/compare?baseline=${encodeURIComponent(id)}`, 'Compare with another matrix'));
    if (!isFinished(m.status)) {
      const p = m.progress;
      progressBox.hidden = false;
      fill(progressBox, h('h2', {}, 'Progress'),
        h('p', {id: 'matrix-progress-text'}, m.status === 'queued' || !p ? 'Queued.' : matrixProgressText(p)),
        p && (p.steps || p.cases) ? h('progress', {max: String(p.steps || p.cases),
          value: String(Math.max(0, (p.step ?? p.caseNumber ?? p.case ?? 1) - 1)),
          'aria-label': 'Steps finished'}) : null);
      if (m.status === 'running' && p) root.dataset.progressSeen = String(Number(root.dataset.progressSeen) + 1);
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
    const rows = cases.map(c => [
      {value: String(c.number ?? ''), header: true},
      fmt.specLine(c.spec),
      c.transport || '–',
      {value: `${c.repetitions?.length ?? 0}${fmt.isNum(wanted) ? ` of ${wanted}` : ''}`, class: 'num'},
      {value: fmt.stat(c.summary?.roundTripsPerSecond, fmt.int), class: 'num'},
      {value: fmt.stat(c.summary?.latency?.p99Us, fmt.us), class: 'num'},
      c.error ? h('span', {class: 'error-text'}, c.error) : c.summary ? caseOutcome(c.summary) : '',
    ]);
    fill(casesBox, h('h2', {}, 'Cases'), h('div', {class: 'scroll'}, table(
      ['#', 'Case', 'Transport', 'Repetitions', 'Round trips/s median [min, max]', 'RTT p99 median [min, max]', ''],
      rows, {className: 'cases', caption: 'Every case of the matrix, in the order it runs'})));
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
    const html = `${base}/report?format=html`;
    const md = `${base}/report?format=md`;
    probe(html).then(status => {
      if (live.disposed) return;
      if (status < 200 || status >= 300) {
        fill(reportBox, h('h2', {}, 'Report'), notice('warn', 'The report is not available from this service yet.',
          `${html} answered ${status || 'nothing'}.`));
        return;
      }
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

// ---- router -------------------------------------------------------------------------------------------------

const routes = [
  [/^\/?$/, homeView, 'Runs', 'runs'],
  [/^\/runs\/new$/, newRunView, 'Start a run', 'new-run'],
  [/^\/runs\/([^/]+)$/, runView, 'Run', 'runs'],
  [/^\/compare$/, compareView, 'Compare', 'compare'],
  [/^\/matrices\/new$/, newMatrixView, 'Start a matrix', 'new-matrix'],
  [/^\/matrices\/([^/]+)$/, matrixView, 'Matrix', 'runs'],
];

let dispose = () => {};

function route() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  const params = new URLSearchParams(query);
  dispose();
  dispose = () => {};
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
    const s = await getJson('/api/system');
    fill(el, `Host: ${s.cpuModel ?? '?'}, ${s.logicalCpus ?? '?'} logical CPUs · ${s.os ?? ''} ${s.kernel ?? ''} · `
      + `Java ${s.javaVersion ?? '?'} · Netty ${s.nettyVersion ?? '?'} · `, link('/swagger-ui.html', 'API'));
  } catch (e) {
    fill(el, `The service's /api/system did not answer (${describe(e)}).`);
  }
}

window.addEventListener('hashchange', route);
route();
footer();
