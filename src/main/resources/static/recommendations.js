// The recommendations, newest first, paged and refreshed every two seconds.

import {h, fill, table} from './dom.js';
import {getJson} from './api.js';
import * as fmt from './format.js';
import {badge, errorNotice, every, heading, link, truncate} from './view.js';

const REFRESH_MS = 2000;

export function recommendationsView(root) {
  const state = {page: 0};
  const box = h('div', {id: 'recommendations-list'}, h('p', {class: 'muted'}, 'Loading recommendations…'));
  fill(root,
    heading('Recommendations'),
    h('p', {class: 'lead'}, 'Which IO model, thread count, transport and execution to use for a load, decided by a '
      + 'race. Newest first; refreshed every two seconds. ', link('#/recommendations/new', 'Get a recommendation'),
    '.'),
    box);

  let request = 0;
  async function load() {
    const mine = ++request;
    let page;
    try {
      page = await getJson(`/api/recommendations?limit=20&page=${state.page}`);
    } catch (e) {
      if (mine === request) fill(box, errorNotice(e, 'Listing recommendations'));
      return;
    }
    if (mine === request) render(page);
  }

  function render(page) {
    if (!page.items?.length) {
      fill(box, h('p', {class: 'muted', id: 'recommendations-empty'}, page.total ? 'No recommendations on this page.'
        : ['No recommendations yet. ', link('#/recommendations/new', 'Get the first one.')]));
      return;
    }
    const rows = page.items.map(r => [
      fmt.time(r.createdAt),
      link(`#/recommendations/${encodeURIComponent(r.id)}`, fmt.shortId(r.id), {class: 'mono', title: r.id}),
      badge(r.status),
      r.protocol ?? '–',
      {value: fmt.int(r.candidates), class: 'num'},
      {value: fmt.seconds(r.budgetSeconds), class: 'num'},
      r.outcome ?? '–',
      h('span', {}, r.answer ? h('span', {title: r.answer}, truncate(r.answer, 140)) : null,
        r.error ? h('span', {class: r.status === 'cancelled' ? 'muted' : 'error-text', title: r.error},
          r.answer ? ' — ' : '', truncate(r.error, 80)) : null),
    ]);
    const pager = h('p', {class: 'pager'},
      `${fmt.int(page.total)} recommendation${page.total === 1 ? '' : 's'}`,
      page.total > page.limit ? ` · page ${page.page + 1} of ${Math.ceil(page.total / page.limit)} ` : ' ',
      page.page > 0 ? h('button', {type: 'button', onclick: () => {
        state.page--;
        load();
      }}, 'Newer') : null, ' ',
      page.nextPage != null ? h('button', {type: 'button', onclick: () => {
        state.page = page.nextPage;
        load();
      }}, 'Older') : null);
    fill(box, h('div', {class: 'scroll'}, table(
      ['Created', 'Recommendation', 'Status', 'Protocol', 'Candidates', 'Budget', 'Outcome', 'Answer'],
      rows, {className: 'recommendations', caption: 'Recommendations, newest first'})), pager);
  }

  load();
  return every(REFRESH_MS, load);
}
