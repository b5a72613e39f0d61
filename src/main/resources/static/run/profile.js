// Where the CPU time of a run's (or a matrix case's) measured phases went, from their CPU profiles: which profiler
// sampled, the time by layer and by thread, and a flame graph of the stored call trees. The service assigns the
// layers; the page only merges trees by frame path and colours frames by the kind their names say.

import {h, fill, table, notice} from '../dom.js';
import * as fmt from '../format.js';

const ROW_PX = 18;
// frames under this share of the frame zoomed into are left out (and what they call): under a pixel or so
const LEAST_WIDTH = 0.001;
// frames at least this wide carry their name as text and take keyboard focus; narrower ones show it on hover
const LABELLED_WIDTH = 0.02;

/** The run's section; empty until a repetition has a profile. */
export function renderProfile(box, r) {
  fill(box, profileSection(r, 'run-profile'));
}

/**
 * The section for x, a run or a matrix case (its summary and repetitions), its element ids starting with prefix; an
 * empty list when no repetition was profiled.
 */
export function profileSection(x, prefix, title = 'Where the CPU time goes') {
  const reps = (Array.isArray(x.repetitions) ? x.repetitions : []).filter(r => r.cpuProfile);
  const summary = x.summary?.cpuProfile;
  if (!reps.length) return [];
  const profiles = reps.map(r => r.cpuProfile);
  const distinct = f => [...new Set(profiles.map(f).filter(Boolean))];
  const fallbacks = distinct(p => p.fallback);
  const samples = profiles.reduce((n, p) => n + p.samples, 0);
  const everyMs = profiles[0].intervalMicros / 1000;

  const tablesBox = h('div', {id: `${prefix}-tables`});
  const flame = flameGraph(`${prefix}-flame`);
  const chooser = h('select', {id: `${prefix}-repetition`, onchange: () => show(chooser.value)},
    h('option', {value: ''}, reps.length === 1 ? `Repetition ${reps[0].repetition}`
      : `All ${reps.length} repetitions merged`),
    reps.length > 1 ? reps.map(r => h('option', {value: String(r.repetition)}, `Repetition ${r.repetition} `
      + `(${fmt.int(r.cpuProfile.samples)} samples)`)) : null);
  // every repetition merged: the tables are the service's summary (with CPU µs per round trip) when there is one
  function show(repetition) {
    const one = reps.find(r => String(r.repetition) === repetition)?.cpuProfile;
    fill(tablesBox, tables(prefix, one || summary || (reps.length === 1 ? profiles[0] : null), !one && !!summary));
    flame.show(mergedTree(one ? [one] : profiles));
  }
  show('');

  return [h('h2', {}, title),
    h('p', {id: `${prefix}-profiler`}, `Sampled by ${distinct(p => p.profiler).join(', ')} (`
      + `${distinct(p => p.event).join(', ')}) every ${fmt.sig(everyMs)} ms of each thread's CPU time: `
      + `${fmt.int(samples)} samples over ${reps.length} repetition${reps.length === 1 ? '' : 's'}.`),
    fallbacks.length ? h('div', {id: `${prefix}-fallback`}, notice('warn',
      'The flight recorder sampled instead of async-profiler:', fallbacks.join('; '),
      '. Its stacks hold Java frames only: a system call\'s time shows in the Java method that made it.')) : null,
    profiles.every(p => !p.kernelFrames) ? h('div', {id: `${prefix}-no-kernel`}, notice('info',
      'No kernel frames:', 'no stack reached into the kernel, so the kernel\'s own work is not seen apart; it is '
        + 'counted in the frame that made the system call.')) : null,
    h('p', {}, h('label', {for: chooser.id}, 'Show '), chooser),
    tablesBox, flame.element];
}

/**
 * The layer and thread tables of p, a repetition's profile or the summary's; withCost: p is the summary, whose layers
 * carry CPU µs per round trip.
 */
function tables(prefix, p, withCost) {
  if (!p) {
    return notice('info', 'No merged figures yet:', 'the layers and threads of every repetition together come with '
      + 'the summary, once every repetition has passed. Choose a repetition to see its own.');
  }
  const all = p.layers || [];
  const layers = all.filter(l => l.samples > 0).map(l => [
    {value: l.words, header: true},
    {value: share(l.share), class: 'num'},
    ...(withCost ? [{value: fmt.us(l.cpuUsPerRoundTrip), class: 'num'}] : []),
    {value: fmt.int(l.samples), class: 'num'},
  ]);
  const none = all.filter(l => l.samples === 0).map(l => l.words);
  // a thread's top layers as shares of its own samples, so that threads of different loads read alike
  const top = t => (t.layers || []).slice(0, 3).map((l, i) => [i ? ', ' : null,
    h('span', {class: 'top-layer'}, `${l.words} ${fmt.pct(100 * l.samples / t.samples)}`)]);
  const threads = (p.threads || []).map(t => [
    {value: h('span', {class: 'mono'}, t.thread), header: true},
    {value: share(t.share), class: 'num'},
    {value: fmt.int(t.samples), class: 'num'},
    t.layers?.length ? {value: top(t)} : '–',
  ]);
  return h('div', {class: 'profile-tables'},
    h('div', {class: 'scroll', id: `${prefix}-layers`}, table(
      ['Layer', 'Share', ...(withCost ? ['CPU µs per round trip'] : []), 'Samples'], layers,
      {className: 'profile-layers', caption: 'Samples by the layer of the deepest frame that names one'
        + (withCost ? '; CPU µs per round trip: the layer\'s share of the process\'s CPU time over the measured '
          + 'phases, divided by their round trips' : '')
          + (none.length ? `. No samples in ${none.join(', ')}.` : '.')})),
    h('div', {class: 'scroll', id: `${prefix}-threads`}, table(['Thread', 'Share', 'Samples', 'Its top layers'],
      threads, {className: 'profile-threads', caption: 'Samples by thread: an uneven layout shows as uneven shares. '
        + 'Top layers are shares of the thread\'s own samples; threads under 1 % are together as [other threads].'})));
}

/** A share as a percentage with a bar of that width after it (after: right-aligned, the bars line up). */
function share(x) {
  const bar = h('span', {class: 'share-bar'});
  bar.style.width = `${Math.min(100, Math.max(0, x * 100))}%`;
  return [fmt.pct(x * 100), ' ', h('span', {class: 'share-track', 'aria-hidden': 'true'}, bar)];
}

/**
 * The stored call trees merged by frame path: node {name, self, total, parent, children: Map by name}, under a root
 * whose children are the threads' frames.
 */
function mergedTree(profiles) {
  const root = {name: 'all threads', self: 0, total: 0, parent: null, children: new Map()};
  const made = [];
  for (const p of profiles) {
    const t = p.tree;
    const nodes = new Array(t.length / 3);
    for (let i = 0; i < nodes.length; i++) {
      const parent = t[3 * i] < 0 ? root : nodes[t[3 * i]];
      const name = p.frames[t[3 * i + 1]];
      let n = parent.children.get(name);
      if (!n) {
        n = {name, self: 0, total: 0, parent, children: new Map()};
        parent.children.set(name, n);
        made.push(n);
      }
      n.self += t[3 * i + 2];
      nodes[i] = n;
    }
  }
  // a node is made after its parent: backwards, each node's children have been added up before it
  for (let i = made.length - 1; i >= 0; i--) {
    const n = made[i];
    n.total += n.self;
    n.parent.total += n.total;
  }
  return root;
}

// Kinds as async-profiler colours them, from what a frame's name says
function kind(name) {
  if (name.endsWith('_[k]')) return 'kernel';
  if (name.startsWith('[') && name.endsWith(']')) return 'thread';
  if (name.includes('/')) return 'java';
  if (name.includes('::')) return 'cpp';
  return 'native';
}

const KINDS = [['java', 'Java'], ['native', 'native'], ['cpp', 'JVM (C++)'], ['kernel', 'kernel'],
  ['thread', 'thread']];

/**
 * A flame graph drawn as positioned divs, the root on top and the frames each calls below it, sorted by name; a click
 * (or Enter) on a frame zooms into it, its callers shown above at full width, and Escape goes back to the root.
 * show(root) draws a tree.
 */
function flameGraph(id) {
  const canvas = h('div', {class: 'flame', id, role: 'group', 'aria-label': 'Flame graph: click a frame to zoom '
    + 'into it'});
  const where = h('span', {id: `${id}-zoom`});
  const reset = h('button', {type: 'button', id: `${id}-reset`, hidden: true, onclick: () => zoom(root)},
    'Show every frame');
  let root = null;
  let drawn = [];

  const label = n => `${n.name}\n${fmt.int(n.total)} samples, ${fmt.pct(100 * n.total / root.total)} of all`
    + (n.self ? `; ${fmt.int(n.self)} in the frame itself` : '');

  function frame(n, depth, left, width, extra) {
    const labelled = width >= LABELLED_WIDTH;
    const el = h('div', {class: `frame kind-${n === root ? 'root' : kind(n.name)}${extra}`, title: label(n),
      role: labelled ? 'button' : null, tabindex: labelled ? '0' : null, dataset: {i: String(drawn.length)}},
    labelled ? n.name : null);
    el.style.left = `${left * 100}%`;
    el.style.width = `${width * 100}%`;
    el.style.top = `${depth * ROW_PX}px`;
    drawn.push(n);
    return el;
  }

  function draw(zoom) {
    drawn = [];
    const els = [];
    const path = [];
    for (let n = zoom; n; n = n.parent) path.unshift(n);
    path.forEach((n, depth) => els.push(frame(n, depth, 0, 1, n === zoom ? ' zoomed' : ' caller')));
    let depthMax = path.length - 1;
    const least = zoom.total * LEAST_WIDTH;
    const walk = (n, depth, start) => {
      let x = start;
      for (const c of [...n.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (c.total >= least) {
          els.push(frame(c, depth, x / zoom.total, c.total / zoom.total, ''));
          depthMax = Math.max(depthMax, depth);
          walk(c, depth + 1, x);
        }
        x += c.total;
      }
    };
    walk(zoom, path.length, 0);
    canvas.style.height = `${(depthMax + 1) * ROW_PX}px`;
    fill(canvas, els);
    reset.hidden = zoom === root;
    fill(where, zoom === root ? `${fmt.int(root.total)} samples. Click a frame to zoom into it.`
      : ['Zoomed into ', h('span', {class: 'mono'}, zoom.name), `: ${fmt.pct(100 * zoom.total / root.total)} of `
        + 'all samples.']);
  }

  // redrawn, the frame that had the focus is gone: the focus goes to the frame zoomed into
  function zoom(n) {
    draw(n);
    canvas.querySelector('.frame.zoomed').focus({preventScroll: true});
  }
  const zoomTo = ev => {
    const el = ev.target.closest('.frame');
    if (el) zoom(drawn[Number(el.dataset.i)]);
  };
  canvas.addEventListener('click', zoomTo);
  canvas.addEventListener('keydown', ev => {
    if (ev.key === 'Enter' || ev.key === ' ') zoomTo(ev);
    else if (ev.key === 'Escape') zoom(root);
    else return;
    ev.preventDefault();
  });

  const element = h('figure', {class: 'flame-graph'},
    h('p', {class: 'flame-bar'}, where, ' ', reset),
    h('div', {class: 'flame-scroll'}, canvas),
    h('figcaption', {}, 'Flame graph of the call trees: each frame is as wide as its share of the samples, the frames '
      + 'it calls below it; frames under 0.5 % of a profile\'s samples are folded into their caller. Colours: ',
    KINDS.map(([k, words], i) => [i ? ', ' : null, h('span', {class: `swatch kind-${k}`, 'aria-hidden': 'true'}),
      ' ', words]), '.'));
  return {element, show: tree => {
    root = tree;
    draw(root);
  }};
}
