// Number, time and spec formatting shared by every view.

const intFmt = new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});

export function isNum(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

/** Integer with thousands separators: 123,456. */
export function int(x) {
  return isNum(x) ? intFmt.format(x) : '–';
}

// one formatter per number of decimals: making one costs far more than formatting, and a flame graph formats
// thousands of numbers at once
const sigFmts = new Map();

/** Three significant digits, without exponent notation: 85.2, 1,234, 0.0123. */
export function sig(x, digits = 3) {
  if (!isNum(x)) return '–';
  if (x === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(x)));
  const decimals = Math.min(Math.max(0, digits - 1 - magnitude), 6);
  if (!sigFmts.has(decimals)) sigFmts.set(decimals, new Intl.NumberFormat('en-US', {maximumFractionDigits: decimals}));
  return sigFmts.get(decimals).format(x);
}

export function us(x) {
  return isNum(x) ? `${sig(x)} µs` : '–';
}

export function mib(bytes) {
  return isNum(bytes) ? `${sig(bytes / 1048576)} MiB` : '–';
}

export function pct(x) {
  return isNum(x) ? `${sig(x)} %` : '–';
}

export function ratio(x) {
  return isNum(x) ? `${x.toFixed(3)}×` : '–';
}

/** Seconds as 0.4 s, 12 s, 3 min 05 s, 1 h 02 min. */
export function seconds(s) {
  if (!isNum(s)) return '–';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Local date and time of an ISO instant, to the second. */
export function time(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const pad = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A {median, min, max} statistic: "median [min, max]". */
export function stat(s, fmt = sig) {
  if (!s || !isNum(s.median)) return '–';
  return `${fmt(s.median)} [${fmt(s.min)}, ${fmt(s.max)}]`;
}

/**
 * JIT activity of a measured phase: "quiet (3 compilations, 1 of the measured path)", "not quiet: 2 C2/OSR
 * compilations of the measured path (14 compilations, 3.2 ms, 1.1 % of CPU)"; records stored before the
 * measured-path rule: "not quiet: 14 compilations (3.2 ms), 1 deoptimization".
 */
export function jit(j) {
  if (!j) return 'not recorded';
  const plural = (n, word) => `${int(n)} ${word}${n === 1 ? '' : 's'}`;
  if (j.pathCompilations == null) {
    return j.quiet ? `quiet (${plural(j.compilations, 'compilation')})`
      : `not quiet: ${plural(j.compilations, 'compilation')} (${sig(j.compileMillis)} ms), `
        + plural(j.deoptimizations, 'deoptimization');
  }
  const all = `${plural(j.compilations, 'compilation')}, ${sig(j.compileMillis)} ms`
    + (isNum(j.compileCpuShare) ? `, ${(j.compileCpuShare * 100).toFixed(1)} % of CPU` : '');
  if (j.quiet) return `quiet (${all}; ${int(j.pathCompilations)} of the measured path)`;
  const why = [
    j.pathDeoptimizations ? `${plural(j.pathDeoptimizations, 'deoptimization')} of the measured path` : null,
    j.pathOptimizations ? `${plural(j.pathOptimizations, 'C2/OSR compilation')} of the measured path` : null,
  ].filter(Boolean);
  return `not quiet: ${why.length ? why.join(', ') : 'compilation took too much CPU'} (${all})`;
}

/** From send stamp to hand-over: "0.8 / 2.9 µs (1 % of RTT p50)"; "not recorded" in older records. */
export function stampGap(g) {
  if (!g) return 'not recorded';
  return `${g.p50Us.toFixed(1)} / ${g.p99Us.toFixed(1)} µs (${Math.round(g.share * 100)} % of RTT p50)`;
}

/**
 * Validated echoes per client: "Jain 0.998 (1,020–1,090 per client)", and where the layout split the clients by
 * thread, each group apart: "; same thread as their server: 2 clients, 1,500 each, p99 150 µs; other: 2, 500
 * each, p99 900 µs".
 */
export function fairness(f) {
  if (!f) return 'not recorded';
  const p = f.populations;
  const p99 = g => (isNum(g.p99Us) ? `, p99 ${us(g.p99Us)}` : '');
  const groups = p ? `; same thread as their server: ${int(p.sameThread.clients)} clients, `
    + `${int(p.sameThread.messages / p.sameThread.clients)} each${p99(p.sameThread)}; other: `
    + `${int(p.otherThread.clients)}, ${int(p.otherThread.messages / p.otherThread.clients)} each`
    + `${p99(p.otherThread)}` : '';
  return `Jain ${isNum(f.jainIndex) ? f.jainIndex.toFixed(3) : '–'} (${int(f.minMessages)}–${int(f.maxMessages)} per client)${groups}`;
}

/** The warm-up that ran: "2.4 s auto, stopped because steady"; "none" without one. */
export function warmup(w) {
  if (!w) return 'none';
  return `${seconds(w.elapsedSeconds)}${w.mode ? ` ${w.mode}` : ''}, `
    + (w.stoppedBecause ? `stopped because ${w.stoppedBecause}` : 'why it stopped not recorded')
    + (w.heldBackBy ? ` (held back by ${w.heldBackBy})` : '');
}

export function shortId(id) {
  return typeof id === 'string' ? id.slice(0, 8) : String(id ?? '');
}

/** One line that identifies a run's load: "tcp 1024 B 16×16 sliding · shared×1 auto". */
export function specLine(spec) {
  if (!spec) return '';
  const parts = [
    spec.protocol, spec.payloadBytes != null ? `${int(spec.payloadBytes)} B` : null,
    spec.clients != null ? `${spec.clients}×${spec.window}` : null,
    spec.windowMode && spec.windowMode !== 'sliding' ? spec.windowMode : null,
    spec.ioModel ? `${spec.ioModel}×${spec.ioThreads}` : null,
    spec.transport && spec.transport !== 'auto' ? spec.transport : null,
    spec.work ? `work ${int(spec.work)}` : null,
    spec.addressFamily && spec.addressFamily !== 'ipv4' ? spec.addressFamily : null,
    spec.execution && spec.execution !== 'netty' ? spec.execution : null,
  ];
  return parts.filter(Boolean).join(' ');
}

/** camelCase JSON name → a label: payloadBytes → "Payload (bytes)", ioThreads → "IO threads". */
export function humanize(name) {
  let unit = '';
  let base = name;
  for (const [suffix, u] of [['Bytes', 'bytes'], ['Seconds', 's'], ['Millis', 'ms'], ['Us', 'µs']]) {
    if (name.endsWith(suffix) && name.length > suffix.length) {
      base = name.slice(0, -suffix.length);
      unit = ` (${u})`;
      break;
    }
  }
  const words = base.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(' ')
    .map(w => ({io: 'IO', ipv4: 'IPv4', ipv6: 'IPv6', tcp: 'TCP', udp: 'UDP', cpu: 'CPU', rss: 'RSS', gc: 'GC'}[w] ?? w));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + unit;
}

/** Any JSON value as compact text for a table cell. */
export function compact(v) {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'number') return Number.isInteger(v) ? int(v) : sig(v);
  if (typeof v === 'object') {
    if (Array.isArray(v)) return v.map(compact).join(', ');
    return Object.entries(v).map(([k, x]) => `${k} ${compact(x)}`).join(', ');
  }
  return String(v);
}
