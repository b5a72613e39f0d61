// A run across hosts: per repetition, what each agent did and how simultaneous the measured phase's start was.

import {h, fill, table, notice} from '../dom.js';
import * as fmt from '../format.js';

export function renderAcrossHosts(box, r) {
  const hosts = Array.isArray(r.acrossHosts) ? r.acrossHosts : [];
  if (!hosts.length) {
    fill(box);
    return;
  }
  // CPU and peak RSS per agent: columns only when the records carry them (runs recorded before they were do not)
  const shares = hosts.flatMap(x => Array.isArray(x.agents) ? x.agents : []);
  const cpu = shares.some(a => a.cpuPercent !== undefined);
  const rss = shares.some(a => a.peakRssBytes !== undefined);
  const headers = ['Agent', 'Role', 'Clients', 'Messages', 'Round trips/s', 'p99 RTT', 'Start late',
    ...(cpu ? ['CPU'] : []), ...(rss ? ['Peak RSS'] : []), 'Error'];
  const row = a => [
    {value: a.member ?? '–', header: true},
    a.server ? (a.clients > 0 ? 'server, clients' : 'server') : 'clients',
    {value: fmt.int(a.clients), class: 'num'},
    {value: fmt.int(a.messages), class: 'num'},
    {value: fmt.int(a.roundTripsPerSecond), class: 'num'},
    {value: fmt.us(a.p99Us), class: 'num'},
    {value: fmt.us(fmt.isNum(a.startLateNanos) ? a.startLateNanos / 1e3 : null), class: 'num'},
    ...(cpu ? [{value: fmt.pct(a.cpuPercent), class: 'num'}] : []),
    ...(rss ? [{value: fmt.mib(a.peakRssBytes), class: 'num'}] : []),
    a.error ? h('span', {class: 'error-text'}, a.error) : '–',
  ];
  const caption = 'One row per agent; the repetition\'s merged figures are under Repetitions. Start late: when the '
    + 'agent\'s clients began their measured phase, after the instant all were told, on the coordinator\'s '
    + 'timeline through its clock offset.'
    + (cpu ? ' CPU: the agent\'s process over its measured phase, 100 % = one logical CPU.' : '');
  fill(box, h('h2', {}, 'Across hosts'), hosts.map(x => {
    const s = x.start;
    const agents = Array.isArray(x.agents) ? x.agents : [];
    return h('div', {class: 'hosts-repetition', dataset: {repetition: String(x.repetition)}},
      h('h3', {}, `Repetition ${x.repetition}`),
      s ? h('p', {class: 'start-skew'}, (s.stopSkewNanos == null ? 'Start barrier skew: ' : 'Measured start skew: ')
        + `${fmt.us(s.skewNanos / 1e3)} (± ${fmt.us(s.skewUncertaintyNanos / 1e3)})`
        + (s.stopSkewNanos == null ? '' : `; stop skew ${fmt.us(s.stopSkewNanos / 1e3)}; every client agent in `
          + `its measured phase together for ${(s.overlapNanos / 1e9).toFixed(3)} s`)) : null,
      agents.length ? h('div', {class: 'scroll'}, table(headers, agents.map(row), {className: 'hosts', caption}))
        : notice('warn', 'Failed before its measured phase:', 'see the repetition\'s error.'));
  }));
}
