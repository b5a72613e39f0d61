// The finished run's report: links to its HTML and Markdown, and the HTML shown in a frame on request.

import {h, fill} from '../dom.js';
import {link, whenReport} from '../view.js';

export function renderReport(box, base, live, r) {
  fill(box, h('h2', {}, 'Report'), h('p', {class: 'muted'}, 'Looking for the report…'));
  whenReport(box, base, live, (html, md) => {
    const frameBox = h('div', {class: 'report-frame'});
    const toggle = h('button', {type: 'button', 'aria-expanded': 'false', onclick: () => {
      const open = toggle.getAttribute('aria-expanded') === 'true';
      toggle.setAttribute('aria-expanded', String(!open));
      toggle.textContent = open ? 'Show the report here' : 'Hide the report';
      fill(frameBox, open ? null : h('iframe', {src: html, title: `Report of run ${r.id}`, sandbox: '',
        loading: 'lazy'}));
    }}, 'Show the report here');
    fill(box, h('h2', {}, 'Report'), h('p', {},
      link(html, 'HTML report', {id: 'run-report-html', target: '_blank', rel: 'noopener'}), ' · ',
      link(md, 'Markdown report', {id: 'run-report-md', target: '_blank', rel: 'noopener'}), ' · ', toggle),
    frameBox);
  });
}
