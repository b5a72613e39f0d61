// The agents page: the cluster this service coordinates and its agents, refreshed every two seconds.

import {h, fill, table} from './dom.js';
import {getJson} from './api.js';
import {errorNotice, every, heading} from './view.js';

const REFRESH_MS = 2000;

export function agentsView(root) {
  const box = h('div', {id: 'agents-list', 'aria-live': 'off'}, h('p', {class: 'muted'}, 'Loading the cluster…'));
  fill(root, heading('Agents'),
    h('p', {class: 'lead'}, 'Hosts that joined the cluster this service coordinates; refreshed every two seconds. '
      + 'Runs do not use agents yet (docs/deployment.md, "Beyond one machine").'),
    box);

  async function load() {
    let view;
    try {
      view = await getJson('/api/agents');
    } catch (e) {
      fill(box, errorNotice(e, 'Listing the agents'));
      return;
    }
    render(view);
  }

  function render(view) {
    if (view.cluster === 'disabled') {
      fill(box, h('p', {class: 'muted', id: 'agents-disabled'}, 'Clustering is off (loopbench.cluster.enabled): '
        + 'this service measures on its own host only.'));
      return;
    }
    const c = view.coordinator || {};
    const summary = h('p', {}, `Cluster "${view.clusterName}", coordinator at ${view.coordinatorAddress} `
      + `(${c.hostName ?? '?'}, ${c.logicalCpus ?? '?'} CPUs, loopbench ${c.loopbenchVersion ?? '?'}). `
      + `${view.agents.length} agent${view.agents.length === 1 ? '' : 's'}.`);
    if (!view.agents.length) {
      fill(box, summary, h('p', {class: 'muted', id: 'agents-empty'}, 'No agent has joined. Start one with '),
        h('pre', {}, `./loopbench agent --hosts ${view.coordinatorAddress}`));
      return;
    }
    const rows = view.agents.map(a => {
      const f = a.facts || {};
      return [a.member, a.address ?? '?', a.state, f.hostName ?? '', f.cpuModel ?? '',
        {value: f.logicalCpus ?? '', class: 'num'},
        {value: f.memoryBytes == null ? '' : `${Math.round(f.memoryBytes / 2 ** 30)} GiB`, class: 'num'},
        f.javaVersion ? `${f.javaVendor} ${f.javaVersion}` : '',
        f.loopbenchVersion ? `${f.loopbenchVersion}${f.gitCommit ? ` (${f.gitCommit})` : ''}` : '',
        f.nettyVersion ?? ''];
    });
    fill(box, summary, h('div', {class: 'scroll'}, table(
      ['Member', 'Address', 'State', 'Host', 'CPU', 'CPUs', 'Memory', 'JVM', 'loopbench', 'Netty'], rows,
      {className: 'agents', caption: 'Agents, by member name'})));
  }

  load();
  return every(REFRESH_MS, load);
}
