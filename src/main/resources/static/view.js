// What every view shares: its heading and links, status badges, error notices, polling, following a run or a
// matrix live, charts, and the API description the forms and filters are built from.

import {h, fill, notice} from './dom.js';
import {getJson, postJson, probe, describe, follow, ApiError} from './api.js';
import * as fmt from './format.js';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
export const isFinished = status => FINISHED.has(status);

// The API description, read once.

let apiDocsPromise = null;
export function apiDocs() {
  if (!apiDocsPromise) {
    apiDocsPromise = getJson('/v3/api-docs', {signal: null}).catch(e => {
      apiDocsPromise = null; // try again next time
      throw e;
    });
  }
  return apiDocsPromise;
}

export function badge(status) {
  return h('span', {class: `badge status-${status || 'unknown'}`}, status || 'unknown');
}

export function heading(text, ...extra) {
  return h('h1', {tabindex: '-1'}, text, ...extra);
}

/** After a view replaced its heading, keeps keyboard focus at the top of the view rather than lost on <body>. */
export function refocus(root) {
  if (document.activeElement === document.body || !document.activeElement) {
    root.querySelector('h1')?.focus({preventScroll: true});
  }
}

export function errorNotice(e, what) {
  if (e instanceof ApiError && e.missingEndpoint) {
    return notice('warn', `${what} is not available from this service yet.`,
      `${e.url} answered ${e.status}; it comes with a newer version of the service.`);
  }
  return notice('error', `${what} failed.`, describe(e));
}

export function link(href, text, attrs = {}) {
  return h('a', {href, ...attrs}, text);
}

/** Polls fn every ms milliseconds (pausing while the page is hidden) until the returned stop() is called. */
export function every(ms, fn) {
  let timer = null;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    if (!document.hidden) {
      try {
        await fn();
      } catch (e) {
        if (e.name !== 'AbortError') console.warn(e);
      }
    }
    if (!stopped) timer = setTimeout(tick, ms);
  };
  timer = setTimeout(tick, ms);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export function truncate(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/**
 * Loads a run, a matrix or a recommendation, renders it, then follows it live over SSE until it finishes, polling
 * every pollMs instead if the stream is lost; a missing one links back to the list at listHref. Returns {disposed,
 * dispose}: views check `disposed` before they touch the page.
 */
export function followLive(root, {base, id, noun, pollMs, render, listHref = '#/'}) {
  const live = {disposed: false};
  let stopStream = () => {};
  let stopPoll = () => {};

  function startPolling() {
    stopPoll();
    stopPoll = every(pollMs, async () => {
      const x = await getJson(base);
      render(x);
      if (isFinished(x.status)) stopPoll();
    });
  }

  (async () => {
    let x;
    try {
      x = await getJson(base);
    } catch (e) {
      if (live.disposed) return; // left before it loaded: its read was aborted
      const title = noun[0].toUpperCase() + noun.slice(1) + ' ';
      fill(root, heading(title, h('span', {class: 'mono'}, fmt.shortId(id))),
        e instanceof ApiError && e.status === 404 && !e.missingEndpoint
          ? notice('error', `No such ${noun}.`, describe(e), ' ', link(listHref, 'Back to the list.'))
          : errorNotice(e, `Reading the ${noun}`));
      return;
    }
    render(x);
    if (!isFinished(x.status) && !live.disposed) {
      stopStream = follow(`${base}/events`, {onUpdate: render, onFinished: render, onLost: startPolling});
    }
  })();

  live.dispose = () => {
    live.disposed = true;
    stopStream();
    stopPoll();
  };
  return live;
}

/**
 * A button that cancels the run, matrix or recommendation at base and renders what the service answers; errors go to
 * errorBox.
 */
export function cancelButton(base, render, errorBox, label, id) {
  return h('button', {type: 'button', id, onclick: async ev => {
    ev.target.disabled = true;
    try {
      render(await postJson(`${base}/cancel`));
    } catch (e) {
      fill(errorBox, errorNotice(e, 'Cancelling'));
    }
  }}, label);
}

/**
 * Asks whether the service has the report at base: show(html, md) fills box with it if so, else box says it has not;
 * nothing happens once the view has been left (live.disposed).
 */
export function whenReport(box, base, live, show) {
  const html = `${base}/report?format=html`;
  const md = `${base}/report?format=md`;
  probe(html).then(status => {
    if (live.disposed) return;
    if (status < 200 || status >= 300) {
      fill(box, h('h2', {}, 'Report'), notice('warn', 'The report is not available from this service yet.',
        `${html} answered ${status || 'nothing'}.`));
      return;
    }
    show(html, md);
  });
}

/** An <img> of an SVG chart; when it does not load, a notice that says what the service answered. */
export function chart(src, caption, id) {
  const img = h('img', {src, alt: caption, id, class: 'chart-img'});
  const fig = h('figure', {class: 'chart'}, h('a', {href: src, target: '_blank', rel: 'noopener',
    title: 'Open the chart at full size'}, img), h('figcaption', {}, caption));
  img.addEventListener('error', async () => {
    const status = await probe(src);
    fig.classList.add('missing');
    fill(fig, notice('warn', `${caption}: not available.`, status === 404
      ? `${src} answered 404: this service does not draw charts yet, or has no data for them.`
      : `${src} answered ${status || 'nothing'}.`));
  }, {once: true});
  return fig;
}
