// The run's actions: cancel while it runs, a new run from its spec, comparison, and delete once it has finished.

import {h, fill} from '../dom.js';
import {del} from '../api.js';
import {isFinished, errorNotice, link, cancelButton} from '../view.js';

export function renderActions(box, r, {base, render, errorBox}) {
  fill(box,
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
