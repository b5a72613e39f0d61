// Two runs or matrices compared case by case: ratios with their intervals, each difference's decision, and where
// their CPU time per round trip differs.

import {h, fill, table, notice} from './dom.js';
import {getJson} from './api.js';
import * as fmt from './format.js';
import {heading, errorNotice, chart} from './view.js';

// a case's fields shown in columns or sections of their own; the others are shown as they come
const OWN_KEYS = new Set(['throughput', 'p99', 'verdict', 'warnings', 'cpuProfile']);

// what each decision of a difference lets a reader conclude (io.loopbench.verdicts.Decision)
const DECISIONS = {
  established: null,
  below_minimum_effect: 'under the minimum effect',
  equivalent: 'no difference beyond the minimum effect',
  not_established: 'not established',
  too_few_repetitions: 'too few repetitions',
  drift_not_controlled: 'measured at different times: drift not controlled',
};

/** A difference (io.loopbench.verdicts.Difference) as a cell: its ratio, interval and decision, marked if better. */
function ratioCell(d, higherIsBetter) {
  if (!d) return '';
  let cls = 'num';
  let note;
  if (d.decision === 'established') {
    const better = higherIsBetter ? d.ratio > 1 : d.ratio < 1;
    cls += better ? ' better' : ' worse';
    note = better ? 'better' : 'worse';
  } else if (d.decision === 'too_few_repetitions') {
    note = `too few repetitions (${Math.min(d.baselineSize, d.candidateSize)}; ${d.needed} needed)`;
  } else {
    note = DECISIONS[d.decision] ?? d.decision;
  }
  const interval = fmt.isNum(d.lower) && fmt.isNum(d.upper)
    ? ` (${d.lower.toFixed(2)}–${d.upper.toFixed(2)})` : '';
  return {value: [fmt.ratio(d.ratio) + interval, h('span', {class: 'note'}, ` ${note}`)], class: cls};
}

export function compareView(root, params) {
  const baseline = h('select', {id: 'compare-baseline', name: 'baseline', required: true});
  const candidate = h('select', {id: 'compare-candidate', name: 'candidate', required: true});
  const result = h('section', {id: 'compare-result', 'aria-live': 'polite'});
  const formEl = h('form', {id: 'compare-form', class: 'compare-form'},
    h('div', {class: 'field'}, h('label', {for: 'compare-baseline'}, 'Baseline'), baseline),
    h('div', {class: 'field'}, h('label', {for: 'compare-candidate'}, 'Candidate'), candidate),
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Compare')));
  fill(root, heading('Compare'),
    h('p', {class: 'lead'}, 'Each ratio is candidate ÷ baseline: a throughput ratio above 1 is faster, a p99 ratio '
      + 'below 1 is a lower tail latency. Each comes with its interval from an anytime-valid confidence sequence, '
      + 'and only an established difference is marked better or worse. Two runs measured at different times are '
      + 'established only when the whole interval lies beyond how far separate runs drift on this machine (a matrix '
      + 'alternates its cases, so its reports need not clear that drift). Where either side carries warnings (a measured phase not JIT-quiet, window not kept full, a '
      + 'capped warm-up), the ratio is not clean.'),
    formEl, result);

  async function loadChoices() {
    const [runs, matrices] = await Promise.allSettled([
      getJson('/api/runs?status=succeeded&limit=200'), getJson('/api/matrices?limit=200')]);
    for (const sel of [baseline, candidate]) {
      fill(sel, h('option', {value: ''}, '— choose —'));
      if (runs.status === 'fulfilled') {
        sel.append(h('optgroup', {label: 'Succeeded runs'}, runs.value.items.map(r => h('option', {value: r.id},
          `${fmt.specLine(r.spec)} · ${r.roundTripsPerSecond ? `${fmt.int(r.roundTripsPerSecond.median)} rt/s · `
            : ''}${fmt.time(r.createdAt)} · ${fmt.shortId(r.id)}`))));
      }
      if (matrices.status === 'fulfilled' && matrices.value.items?.length) {
        sel.append(h('optgroup', {label: 'Matrices'}, matrices.value.items.map(m => h('option', {value: m.id},
          `matrix · ${fmt.isNum(m.cases) ? `${m.cases} cases · ` : ''}${m.status} · ${fmt.time(m.createdAt)} · `
          + fmt.shortId(m.id)))));
      }
    }
    if (runs.status === 'rejected') result.before(errorNotice(runs.reason, 'Listing runs'));
    for (const [sel, name] of [[baseline, 'baseline'], [candidate, 'candidate']]) {
      const v = params.get(name);
      if (v && ![...sel.options].some(o => o.value === v)) sel.append(h('option', {value: v}, v));
      if (v) sel.value = v;
    }
  }

  async function compare() {
    if (!baseline.value || !candidate.value) {
      fill(result, notice('warn', 'Choose a baseline and a candidate.'));
      return;
    }
    fill(result, h('p', {class: 'muted'}, 'Comparing…'));
    const q = new URLSearchParams({baseline: baseline.value, candidate: candidate.value});
    let cmp;
    try {
      cmp = await getJson(`/api/compare?${q}`);
    } catch (e) {
      fill(result, errorNotice(e, 'The comparison'));
      return;
    }
    renderComparison(cmp);
    renderGate(q);
  }

  // the regression gate over the same two (./loopbench compare's verdict), below the ratios
  async function renderGate(q) {
    const gate = h('section', {id: 'compare-gate'}, h('p', {class: 'muted'}, 'Regression gate…'));
    result.append(gate);
    let g;
    try {
      g = await getJson(`/api/gate?${q}`);
    } catch (e) {
      fill(gate, errorNotice(e, 'The regression gate'));
      return;
    }
    fill(gate, h('h2', {}, 'Regression gate'),
      h('p', {}, 'Did the candidate regress by more than ', `${Math.round(g.threshold * 100)} %`,
        ' in throughput or p99? ', h('strong', {class: 'gate-verdict'}, g.verdict),
        ` (exit code ${g.exitCode} of ./loopbench compare).`),
      Array.isArray(g.reasons) && g.reasons.length
        ? h('ul', {class: 'gate-reasons'}, g.reasons.map(r => h('li', {}, r))) : null,
      h('p', {class: 'muted'}, `Method: ${g.method}.`));
  }

  function renderComparison(cmp) {
    const cases = Array.isArray(cmp?.cases) ? cmp.cases : [];
    const others = [
      Array.isArray(cmp?.unmatched) && cmp.unmatched.length ? h('div', {id: 'compare-unmatched'},
        h('h3', {}, 'Cases on one side only'), h('ul', {}, cmp.unmatched.map(x => h('li', {}, x)))) : null,
      Array.isArray(cmp?.failedCases) && cmp.failedCases.length ? h('div', {id: 'compare-failed'},
        h('h3', {}, 'Cases left out because a side failed'), h('ul', {}, cmp.failedCases.map(x => h('li', {}, x))))
        : null,
    ];
    if (!cases.length) {
      fill(result, notice('info', 'No cases to compare.', 'The two have no succeeded case in common.'), others);
      return;
    }
    const hasVerdict = cases.some(c => typeof c.verdict === 'string');
    const keys = [...new Set(cases.flatMap(c => Object.keys(c)).filter(k => !OWN_KEYS.has(k)))];
    // a service without the self-checks sends no warnings: then the column is left out rather than read as clean
    const hasWarnings = cases.some(c => Array.isArray(c.warnings));
    const warningsCell = c => (c.warnings?.length ? {value: h('ul', {class: 'warnings'},
      c.warnings.map(w => h('li', {}, w))), class: 'warn-text'} : 'none');
    fill(result, h('h2', {}, 'Result'), h('div', {class: 'scroll'}, table(
      [...keys.map(k => fmt.humanize(k)), 'Throughput ratio', 'p99 ratio', hasVerdict ? 'Verdict' : null,
        hasWarnings ? 'Warnings' : null].filter(Boolean),
      cases.map(c => [...keys.map(k => fmt.compact(c[k])),
        ratioCell(c.throughput, true),
        ratioCell(c.p99, false), ...(hasVerdict ? [c.verdict ?? ''] : []),
        ...(hasWarnings ? [warningsCell(c)] : [])]),
      {className: 'compare', caption: 'Candidate ÷ baseline per case, with its interval; a ratio whose sides '
        + 'carry warnings is not clean'})), others, profileDifferences(cases),
    cases.length === 1 ? h('div', {class: 'charts'}, chart(`/api/compare/spectrum.svg?${new URLSearchParams(
      {baseline: baseline.value, candidate: candidate.value})}`, 'Latency by percentile, pooled: both runs overlaid',
    'compare-spectrum')) : null);
  }

  formEl.addEventListener('submit', ev => {
    ev.preventDefault();
    const q = new URLSearchParams({baseline: baseline.value, candidate: candidate.value});
    history.replaceState(null, '', `#/compare?${q}`);
    compare();
  });
  loadChoices().then(() => {
    if (params.get('baseline') && params.get('candidate')) compare();
  });
  return () => {};
}

/** Where each case's CPU time per round trip differs, for the cases profiled on both sides; null when none was. */
function profileDifferences(cases) {
  const profiled = cases.filter(c => c.cpuProfile);
  if (!profiled.length) return null;
  const signed = x => (fmt.isNum(x) ? `${x > 0 ? '+' : x < 0 ? '−' : ''}${fmt.us(Math.abs(x))}` : '–');
  // a layer's change is decided over the repetitions (less CPU is better); a frame's is the pooled figure only
  const pooled = x => (fmt.isNum(x.ratio) ? {value: fmt.ratio(x.ratio), class: 'num'}
    : {value: 'none in the baseline', class: 'num'});
  const rows = (list, name, ratio) => list.map(x => [{value: name(x.name), header: true},
    {value: fmt.us(x.baselineUsPerRoundTrip), class: 'num'}, {value: fmt.us(x.candidateUsPerRoundTrip), class: 'num'},
    {value: signed(x.changeUs), class: 'num'}, ratio(x)]);
  const columns = (what, ratio) => [what, 'Baseline µs per round trip', 'Candidate µs per round trip', 'Change',
    ratio];
  return h('section', {id: 'compare-profiles'}, h('h2', {}, 'Where the CPU time per round trip differs'),
    h('p', {class: 'muted'}, 'From the CPU profiles of each side\'s passed repetitions, pooled. Each layer\'s '
      + 'change is decided as throughput is, over the repetitions\' own figures (matched by round in a matrix), the '
      + 'layers as one family; a frame\'s ratio is the pooled figure only.'),
    profiled.map((c, i) => h('div', {class: 'profile-difference', id: `compare-profile-${i + 1}`},
      h('h3', {}, `${c.baselineCase} → ${c.candidateCase}`),
      h('p', {class: 'profile-words'}, c.cpuProfile.words),
      h('p', {}, `CPU per round trip, every layer together: ${fmt.us(c.cpuProfile.baselineUsPerRoundTrip)} in the `
        + `baseline, ${fmt.us(c.cpuProfile.candidateUsPerRoundTrip)} in the candidate.`),
      h('div', {class: 'scroll'}, table(columns('Layer', 'Ratio (95 % interval)'),
        rows(c.cpuProfile.layers || [], n => n, x => ratioCell(x.difference, false)),
        {className: 'profile-layers', caption: 'Every layer with samples on either side, largest change first'})),
      c.cpuProfile.frames?.length ? h('div', {class: 'scroll'}, table(columns('Frame', 'Ratio (pooled)'),
        rows(c.cpuProfile.frames, n => h('span', {class: 'mono'}, n), pooled),
        {className: 'profile-frames', caption: 'The frames whose CPU per round trip, with what they call, changed '
          + 'most'})) : null)));
}
