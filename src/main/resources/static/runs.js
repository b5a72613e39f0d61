// The home page: the runs, newest first, filtered and paged, refreshed every two seconds; the matrices below them.

import {h, fill, table} from './dom.js';
import {getJson} from './api.js';
import * as fmt from './format.js';
import {resolve} from './form.js';
import {apiDocs, badge, errorNotice, every, heading, link, truncate} from './view.js';
import {matricesList} from './matrices.js';

const REFRESH_MS = 2000;
const STATUS_FALLBACK = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'];

function enumOf(docs, path, param, fallback) {
  const p = docs?.paths?.[path]?.get?.parameters?.find(x => x.name === param);
  return resolve(docs, p?.schema)?.enum || fallback;
}

export function runsView(root) {
  const state = {status: '', protocol: '', page: 0};
  const runsBox = h('div', {id: 'runs-list', 'aria-live': 'off'}, h('p', {class: 'muted'}, 'Loading runs…'));
  const matrices = matricesList();
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
    matrices.element);

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

  loadRuns();
  matrices.load();
  const stop = every(REFRESH_MS, () => Promise.all([loadRuns(), matrices.load()]));
  return stop;
}
