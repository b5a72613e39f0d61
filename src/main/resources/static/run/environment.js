// The run's environment: transport, channels, TLS negotiated, JVM and host, and everything the worker recorded.

import {h, fill} from '../dom.js';
import * as fmt from '../format.js';

export function renderEnvironment(box, r) {
  const first = r.repetitions.find(x => x.transport) || {};
  const env = r.workerEnvironment;
  const items = [
    ['Transport', r.transport || first.transport],
    ['Channels', first.serverChannel ? `${first.serverChannel} / ${first.clientChannel}` : null],
    ['Connections on one thread', first.connectionsOnOneThread],
    ['TLS negotiated', first.tls ? `${first.tls.provider}: ${first.tls.protocol} ${first.tls.cipherSuite}` : null],
    ['JVM', env ? `${env.javaVendor ?? ''} ${env.javaVersion ?? ''}`.trim() : null],
    ['Host', r.system ? `${r.system.cpuModel}, ${r.system.logicalCpus} logical CPUs, ${r.system.os} `
      + `${r.system.kernel}` : null],
  ].filter(([, v]) => v !== null && v !== undefined && v !== '');
  fill(box, items.length ? [h('h2', {}, 'Environment'), h('dl', {class: 'spec'},
    items.map(([k, v]) => [h('dt', {}, k), h('dd', {}, fmt.compact(v))])),
  r.workerEnvironment ? h('details', {}, h('summary', {}, 'Everything the worker recorded'),
    h('pre', {}, JSON.stringify(r.workerEnvironment, null, 2))) : null] : null);
}
