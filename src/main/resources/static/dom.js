// Tiny DOM helpers: every text goes in through textContent, never innerHTML, so data from the API can't inject markup.

/**
 * h('a', {href: '#/x', class: 'y', dataset: {k: 'v'}, onclick: fn}, 'text', child, [more children])
 * Attributes whose value is null, undefined or false are left out; true sets an empty attribute.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string' && k !== 'list') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replaces el's children. */
export function fill(el, ...children) {
  return append(clear(el), children);
}

/** A table from column headers and rows of cells (a cell may be a Node, text, or {value, class}). */
export function table(headers, rows, {caption, className} = {}) {
  return h('table', {class: className},
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, headers.map(x => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, rows.map(r => h('tr', {}, r.map((c, i) => {
      const cell = c && typeof c === 'object' && !(c instanceof Node) ? c : {value: c};
      return h(i === 0 && cell.header ? 'th' : 'td', {class: cell.class, scope: cell.header ? 'row' : null},
        cell.value ?? '');
    })))));
}

/** A message box: kind is 'error', 'warn' or 'info'. */
export function notice(kind, title, ...body) {
  return h('div', {class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status'},
    title ? h('strong', {}, title) : null, body.length ? ' ' : null, ...body);
}
