// The run's specification: its one-line description, where it ran across hosts, and every field.

import {h, fill} from '../dom.js';
import * as fmt from '../format.js';

export function renderSpec(box, r) {
  const spec = r.spec || {};
  fill(box, h('h2', {}, 'Specification'),
    h('p', {class: 'muted'}, `${fmt.specLine(spec)} · ${r.placement ? 'across hosts' : r.isolation} · created `
      + fmt.time(r.createdAt), r.estimatedSeconds ? ` · estimated ${fmt.seconds(r.estimatedSeconds)}` : ''),
    placement(r.placement),
    h('details', {}, h('summary', {}, 'Every field'),
      h('dl', {class: 'spec'}, Object.entries(spec).map(([k, v]) => [h('dt', {}, h('code', {}, k)),
        h('dd', {}, fmt.compact(v))]))));
}

// A run across hosts: which agent ran the echo server, and which ran clients, with how many each.
function placement(p) {
  if (!p) return null;
  const clients = Array.isArray(p.clients) ? p.clients : [];
  const total = clients.reduce((n, c) => n + (fmt.isNum(c.clients) ? c.clients : 0), 0);
  return h('dl', {class: 'spec', id: 'run-placement'},
    h('dt', {}, 'Echo server'), h('dd', {id: 'run-placement-server'}, p.server ?? '–'),
    h('dt', {}, 'Clients'), h('dd', {id: 'run-placement-clients'}, clients.length
      ? [clients.map((c, i) => [i ? ', ' : null, h('span', {class: 'placement-client'},
        `${c.agent ?? '–'}: ${fmt.int(c.clients)} client${c.clients === 1 ? '' : 's'}`)]),
      clients.length > 1 ? ` (${fmt.int(total)} in all)` : null] : '–'));
}
