// The matrices list, shown on the home page below the runs, and the progress line it shares with a matrix's view.

import {h, fill, table} from './dom.js';
import {getJson, ApiError} from './api.js';
import * as fmt from './format.js';
import {badge, errorNotice, link, truncate} from './view.js';

/** The newest matrices: {element, load()}, load() filling the element anew. */
export function matricesList() {
  const box = h('div', {id: 'matrices-list'}, h('p', {class: 'muted'}, 'Loading matrices…'));
  let missing = false;
  async function load() {
    if (missing) return;
    let page;
    try {
      page = await getJson('/api/matrices?limit=20');
    } catch (e) {
      missing = e instanceof ApiError && e.missingEndpoint;
      fill(box, errorNotice(e, 'Listing matrices'));
      return;
    }
    if (!page.items?.length) {
      fill(box, h('p', {class: 'muted'}, 'No matrices yet. ', link('#/matrices/new', 'Start one.')));
      return;
    }
    fill(box, h('div', {class: 'scroll'}, table(['Created', 'Matrix', 'Status', 'Cases done', ''],
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
  return {element: box, load};
}

/**
 * "Case 2 of 5 · repetition 1 · step 4 of 15 · 12 s elapsed · about 40 s left" from a matrix's progress; across
 * hosts, where agent groups run at once, each group's step follows, by its index in agentGroups: "group 0: case 2,
 * repetition 1 · group 1: done".
 */
export function matrixProgressText(p) {
  if (!p) return '';
  const caseNumber = p.caseNumber ?? p.case;
  const parts = [`Case ${caseNumber ?? '?'} of ${p.cases ?? '?'}`];
  if (fmt.isNum(p.repetition) && p.repetition > 0) parts.push(`repetition ${p.repetition}`);
  if (fmt.isNum(p.step) && fmt.isNum(p.steps)) parts.push(`step ${p.step} of ${p.steps}`);
  if (fmt.isNum(p.elapsedSeconds)) parts.push(`${fmt.seconds(p.elapsedSeconds)} elapsed`);
  if (fmt.isNum(p.etaSeconds)) parts.push(`about ${fmt.seconds(p.etaSeconds)} left`);
  for (const g of p.groups || []) {
    parts.push(`group ${g.agentGroup}: ` + (g.caseNumber == null ? 'done'
      : `case ${g.caseNumber}, repetition ${g.repetition}`));
  }
  return parts.join(' · ');
}
