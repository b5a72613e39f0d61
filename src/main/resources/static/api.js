// The service's HTTP API: JSON in and out, RFC 9457 problems turned into ApiError, and Server-Sent Events.

/** A failed call: status (0 when the service did not answer), the problem body, and the URL. */
export class ApiError extends Error {
  constructor(status, problem, url, retryAfter) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.url = url;
    this.retryAfter = retryAfter;
  }

  /** A 404 or 405 that comes from a route that does not exist (yet), not from an unknown id. */
  get missingEndpoint() {
    const type = this.problem.type;
    return (this.status === 404 && (!type || type === 'about:blank')) || this.status === 405;
  }

  static async from(res, url) {
    const text = await res.text().catch(() => '');
    let problem;
    try {
      problem = JSON.parse(text);
      if (!problem || typeof problem !== 'object') throw new Error('not an object');
    } catch {
      problem = {title: `${res.status} ${res.statusText}`.trim(), detail: text.slice(0, 500) || undefined};
    }
    return new ApiError(res.status, problem, url, res.headers.get('Retry-After'));
  }
}

async function call(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, {title: 'The service did not answer', detail: `${e.message} (${url})`}, url);
  }
  if (!res.ok) throw await ApiError.from(res, url);
  return res;
}

// Aborted when the page leaves the view that is showing (the router gives each view its own): a view's reads end
// with it. A read that outlives views (the footer, the cached API description) passes {signal: null}.
let viewSignal;

export function setViewSignal(signal) {
  viewSignal = signal;
}

export async function getJson(url, {signal} = {}) {
  const res = await call(url, {headers: {Accept: 'application/json'},
    signal: signal === undefined ? viewSignal : signal ?? undefined});
  return res.json();
}

export async function postJson(url, body) {
  const res = await call(url, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? null : res.json();
}

export async function del(url) {
  await call(url, {method: 'DELETE'});
}

/**
 * The HTTP status GET url would answer, found with a HEAD request (a GET where HEAD is not allowed); 0 when the
 * service did not answer.
 */
export async function probe(url) {
  try {
    const res = await fetch(url, {method: 'HEAD'});
    if (res.status !== 405) return res.status;
    const get = await fetch(url);
    get.body?.cancel();
    return get.status;
  } catch {
    return 0;
  }
}

/** A short human sentence for any error: "404 Run not found: no run with id x". */
export function describe(e) {
  if (e instanceof ApiError) {
    const head = e.status ? `${e.status} ${e.problem.title || ''}`.trim() : e.problem.title;
    return e.problem.detail ? `${head}: ${e.problem.detail}` : head;
  }
  return String(e && e.message || e);
}

/**
 * Follows a run's or matrix's event stream: onUpdate(record) for every 'progress' event, onFinished(record) once.
 * When the stream cannot be had (endpoint missing, service gone), calls onLost() once and stops; the caller then
 * polls. Returns a function that closes the stream.
 */
export function follow(url, {onUpdate, onFinished, onLost}) {
  if (typeof EventSource === 'undefined') {
    queueMicrotask(onLost);
    return () => {};
  }
  const es = new EventSource(url);
  let done = false;
  let failures = 0;
  const stop = () => {
    done = true;
    es.close();
  };
  const parse = e => {
    try {
      return JSON.parse(e.data);
    } catch {
      return null;
    }
  };
  const update = e => {
    failures = 0;
    const record = parse(e);
    if (record && !done) onUpdate(record);
  };
  es.addEventListener('progress', update);
  es.addEventListener('message', update);
  es.addEventListener('finished', e => {
    const record = parse(e);
    stop();
    if (record) onFinished(record);
    else onLost();
  });
  es.onerror = () => {
    if (done) return;
    // CLOSED: the stream was refused (e.g. 404); CONNECTING: the browser retries; give it a few chances.
    if (es.readyState === EventSource.CLOSED || ++failures >= 3) {
      stop();
      onLost();
    }
  };
  return stop;
}
