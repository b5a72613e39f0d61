// The forms that start a run, a matrix or a recommendation, built from the API description, and how they show a
// refused value.

import {h, fill, notice} from './dom.js';
import {getJson, postJson, describe, ApiError} from './api.js';
import * as fmt from './format.js';
import {SchemaForm, requestSchema, requestExamples, resolve} from './form.js';
import {apiDocs, heading, refocus, errorNotice, link} from './view.js';

/** Shows a problem from a form submission: violations next to their fields, anything else at the top. */
function showSubmitProblem(form, summary, e, what) {
  const problem = e instanceof ApiError ? e.problem : {};
  let placed = [];
  let unplaced = [];
  if (Array.isArray(problem.violations) && problem.violations.length) {
    unplaced = form.showErrors(problem.violations.map(v => ({field: v.field, message: v.message
        || `${v.field} = ${v.value}: allowed ${v.allowed}`})));
    placed = problem.violations.filter(v => !unplaced.includes(v));
  } else if (e instanceof ApiError && e.status === 400 && problem.detail) {
    // unreadable body: "field 'clients': 'many' is not a value of type integer" names the field
    const m = /field '([^']+)'/.exec(problem.detail);
    if (m && form.fieldFor(m[1])) form.showErrors([{field: m[1], message: problem.detail}]);
    else form.clearErrors();
  } else {
    form.clearErrors();
  }
  const items = [];
  for (const v of unplaced) items.push(h('li', {}, v.message || String(v.field)));
  if (placed.length) {
    items.push(h('li', {}, `${placed.length === 1 ? 'One value is' : `${placed.length} values are`} not `
      + 'allowed; each is explained next to its field: ',
    placed.map((v, i) => [i ? ', ' : '', link(`#${form.inputId(v.field)}`, String(v.field), {
      onclick: ev => {
        ev.preventDefault();
        document.getElementById(form.inputId(v.field))?.focus();
      }})])));
  }
  const detail = e instanceof ApiError && e.missingEndpoint
    ? `${e.url} answered ${e.status}: this service does not offer it yet.`
    : !placed.length && !unplaced.length ? describe(e) : null;
  const retry = e instanceof ApiError && e.retryAfter ? ` Try again in ${e.retryAfter} s.` : '';
  fill(summary, h('div', {class: 'notice notice-error', role: 'alert'},
    h('strong', {}, `${what} was not started.`), detail ? ` ${detail}${retry}` : retry,
    items.length ? h('ul', {}, items) : null));
  summary.hidden = false;
  if (!placed.length) summary.focus();
}

/**
 * Makes a form POST its values to url, as shape(values) makes the request of them: values the form itself refuses are
 * shown without sending; what was created opens its view (#/route/id); the service's problem details are shown next to
 * their fields.
 */
function submitsTo(el, form, summary, submit, url, route, what, shape = body => body) {
  el.addEventListener('submit', async ev => {
    ev.preventDefault();
    summary.hidden = true;
    const {body, errors} = form.read();
    if (errors.size) {
      form.showErrors([...errors].map(([field, message]) => ({field, message})));
      return;
    }
    const label = submit.textContent;
    submit.disabled = true;
    submit.textContent = 'Starting…';
    try {
      const created = await postJson(url, shape(body));
      location.hash = `#/${route}/${encodeURIComponent(created.id)}`;
    } catch (e) {
      showSubmitProblem(form, summary, e, what);
    } finally {
      submit.disabled = false;
      submit.textContent = label;
    }
  });
}

/**
 * A form view built from the API description: says it is reading it and, once read, unless the view has been left
 * meanwhile, builds the form with build(docs); when the description cannot be read, says why with unreadable(e).
 */
/** The form's buttons: submit, and reset to the defaults (no example chosen, no problem shown). */
function actions(submit, exampleSel, form, summary) {
  return h('div', {class: 'actions'}, submit, ' ',
    h('button', {type: 'button', onclick: () => {
      exampleSel.value = '';
      form.reset();
      summary.hidden = true;
    }}, 'Reset to defaults'));
}

function formView(root, title, unreadable, build) {
  fill(root, heading(title), h('p', {class: 'muted'}, 'Reading the fields from the API description…'));
  let disposed = false;
  (async () => {
    let docs;
    try {
      docs = await apiDocs();
    } catch (e) {
      fill(root, heading(title), notice('error', 'The form cannot be built:', unreadable(e)));
      return;
    }
    if (!disposed) await build(docs);
  })();
  return () => {
    disposed = true;
  };
}

export function newRunView(root, params) {
  const unreadable = e => `the API description at /v3/api-docs could not be read (${describe(e)}). It lists the `
    + 'fields, defaults and ranges the form shows.';
  return formView(root, 'Start a run', unreadable, async docs => {
    const schema = requestSchema(docs, '/api/runs', 'RunRequest');
    if (!schema) {
      fill(root, heading('Start a run'), notice('error', 'The form cannot be built:',
        'the API description has no request schema for POST /api/runs.'));
      return;
    }
    const form = new SchemaForm(docs, schema, {idPrefix: 'run'});
    const examples = requestExamples(docs, '/api/runs');
    const summary = h('div', {id: 'run-form-problems', class: 'form-problems', tabindex: '-1', hidden: true});
    const submit = h('button', {type: 'submit', id: 'run-submit', class: 'primary'}, 'Start run');
    const exampleSel = h('select', {id: 'run-example', onchange: () => {
      const ex = examples.find(x => x.name === exampleSel.value);
      form.setValues(ex ? ex.value : {});
      summary.hidden = true;
    }}, h('option', {value: ''}, 'defaults'), examples.map(ex => h('option', {value: ex.name}, ex.summary)));
    const el = h('form', {id: 'run-form', novalidate: true, 'aria-describedby': 'run-form-intro'},
      h('p', {id: 'run-form-intro', class: 'lead'}, schema.description || '',
        ' Every field shows its default and allowed range; an empty field takes its default.'),
      examples.length ? h('p', {class: 'examples'}, h('label', {for: 'run-example'}, 'Start from '), exampleSel)
        : null,
      summary,
      form.element,
      actions(submit, exampleSel, form, summary));
    submitsTo(el, form, summary, submit, '/api/runs', 'runs', 'The run');
    fill(root, heading('Start a run'), el);
    refocus(root);
    if (params.get('from')) {
      try {
        const run = await getJson(`/api/runs/${encodeURIComponent(params.get('from'))}`);
        form.setValues({...run.spec, isolation: run.isolation});
      } catch (e) {
        root.insertBefore(errorNotice(e, 'Reading the run to copy'), el);
      }
    }
  });
}

/** The contract of POST /api/matrices, for a service whose API description does not list it yet. */
function plannedMatrixSchema(docs) {
  const run = requestSchema(docs, '/api/runs', 'RunRequest')?.properties || {};
  const p = name => resolve(docs, run[name]) || {};
  const enumItems = name => (p(name).enum ? {type: 'string', enum: p(name).enum} : {type: 'string'});
  const intItems = name => ({type: 'integer', minimum: p(name).minimum, maximum: p(name).maximum});
  const scalar = name => {
    const {default: _unused, ...rest} = p(name);
    return {type: 'number', ...rest};
  };
  return {properties: {
    protocols: {type: 'array', items: enumItems('protocol'), description: 'Protocols.'},
    payloads: {type: 'array', items: intItems('payloadBytes'), description: 'Payload sizes, bytes per message.'},
    profiles: {type: 'array', items: {type: 'object', properties: {clients: {type: 'integer'},
      window: {type: 'integer'}}}, description: 'Load profiles: clients × window.'},
    ioModels: {type: 'array', items: enumItems('ioModel'), description: 'IO models.'},
    ioThreads: {type: 'array', items: intItems('ioThreads'), description: 'Event-loop thread counts.'},
    work: {type: 'array', items: intItems('work'), description: 'Xorshift iterations per echo.'},
    transports: {type: 'array', items: enumItems('transport'), description: 'Netty transports.'},
    windowModes: {type: 'array', items: enumItems('windowMode'), description: 'Window modes.'},
    seconds: {...scalar('seconds'), description: 'Measured phase in seconds, per repetition of each case.'},
    warmupSeconds: {...scalar('warmupSeconds'), description: 'Warm-up in seconds before each measured phase.'},
    repetitions: {...scalar('repetitions'), type: 'integer', description: 'Repetitions of each case.'},
    keepGoing: {type: 'boolean', description: 'Go on with the other cases when one fails.'},
  }};
}

/**
 * The service checks a matrix case by case and names a broken rule by the run specification's field; each of those
 * belongs to one of the matrix's lists.
 */
const CASE_FIELD_TO_MATRIX_LIST = {protocol: 'protocols', payloadBytes: 'payloads', clients: 'profiles',
  window: 'profiles', ioModel: 'ioModels', transport: 'transports', windowMode: 'windowModes',
  execution: 'executions', load: 'rates', rate: 'rates', blockingMicros: 'blockingMicros', offload: 'offloads',
  offloadThreads: 'offloadThreads'};

export function newMatrixView(root) {
  return formView(root, 'Start a matrix', describe, async docs => {
    const documented = requestSchema(docs, '/api/matrices', 'MatrixRequest');
    const schema = documented || plannedMatrixSchema(docs);
    const form = new SchemaForm(docs, schema, {idPrefix: 'matrix',
      defaultsNote: 'Empty: the service\'s default (arknet\'s baseline)', aliases: CASE_FIELD_TO_MATRIX_LIST});
    const summary = h('div', {id: 'matrix-form-problems', class: 'form-problems', tabindex: '-1', hidden: true});
    const submit = h('button', {type: 'submit', id: 'matrix-submit', class: 'primary'}, 'Start matrix');
    const casesLine = h('p', {id: 'matrix-cases', class: 'muted', 'aria-live': 'polite'});
    const el = h('form', {id: 'matrix-form', novalidate: true},
      h('p', {class: 'lead'}, schema.description || 'A matrix measures every combination of the lists below, one '
        + 'run per case, and reports them together. Leave a list empty for the service\'s default.'),
      documented ? null : notice('info', 'This service\'s API description does not list matrices yet;',
        'the form follows the planned contract, and starting a matrix tells you if the service does not offer it.'),
      summary, form.element, casesLine,
      h('div', {class: 'actions'}, submit, ' ',
        h('button', {type: 'button', onclick: () => {
          form.reset();
          summary.hidden = true;
          countCases();
        }}, 'Reset')));
    function countCases() {
      const {body} = form.read();
      // agentGroups (JSON) says where the cases run, not which: no dimension
      const lists = [...form.fields.values()].filter(f => f.p.type === 'array' && f.kind !== 'json');
      let n = 1;
      const defaulted = [];
      for (const f of lists) {
        // pool sizes multiply the executor offload alone (below)
        if (f.name === 'offloads' || f.name === 'offloadThreads') continue;
        if (Array.isArray(body[f.name])) n *= body[f.name].length;
        // an omitted rate list means closed load, an omitted datagramsPerRead, tlsProviders, blockingMicros or
        // grpcMethods list a single value: one case each
        else if (!['rates', 'datagramsPerRead', 'tlsProviders', 'blockingMicros', 'grpcMethods'].includes(f.name)) {
          defaulted.push(f.name);
        }
      }
      const sizes = Array.isArray(body.offloadThreads) ? body.offloadThreads.length : 1;
      if (Array.isArray(body.offloads)) n *= body.offloads.reduce((k, o) => k + (o === 'executor' ? sizes : 1), 0);
      casesLine.textContent = `${fmt.int(n)} case${n === 1 ? '' : 's'}`
        + (defaulted.length ? ` × the default lists of ${defaulted.join(', ')}` : '') + '.';
    }
    el.addEventListener('input', countCases);
    el.addEventListener('change', countCases);
    countCases();
    submitsTo(el, form, summary, submit, '/api/matrices', 'matrices', 'The matrix');
    fill(root, heading('Start a matrix'), el);
    refocus(root);
  });
}

// The load's fields a recommendation form offers: the rest of a run's spec is either raced (ioModel, ioThreads,
// transport, execution, offload, offloadThreads), set by the race (repetitions) or left at its default.
const RECOMMENDATION_LOAD = ['protocol', 'grpcMethod', 'payloadBytes', 'clients', 'window', 'load', 'rate', 'work',
  'blockingMicros', 'tlsProvider', 'seconds', 'warmupSeconds'];

/**
 * A recommendation request as the form holds it: the load's fields beside the race's, the race's winning a name both
 * have (ioThreads: the load's one count is not used, the race's list is).
 */
function flatRecommendation(spec) {
  const {load, ...race} = spec || {};
  return {...load, ...race};
}

export function newRecommendationView(root, params) {
  const title = 'Get a recommendation';
  return formView(root, title, describe, async docs => {
    const request = requestSchema(docs, '/api/recommendations', 'RecommendationSpec');
    const load = resolve(docs, request?.properties?.load);
    if (!request || !load?.properties) {
      fill(root, heading(title), notice('warn', 'This service does not offer recommendations yet:',
        'its API description has no request schema for POST /api/recommendations.'));
      return;
    }
    const loadNames = RECOMMENDATION_LOAD.filter(n => load.properties[n]);
    const raceNames = Object.keys(request.properties).filter(n => n !== 'load');
    const properties = {};
    for (const n of loadNames) properties[n] = load.properties[n];
    for (const n of raceNames) properties[n] = request.properties[n];
    // budgetSeconds has no default: the service refuses a request without it
    const form = new SchemaForm(docs, {properties, required: ['budgetSeconds']}, {idPrefix: 'recommendation',
      defaultsNote: 'Empty: the service\'s default',
      // the service names the load's fields 'load.clients', a rule on several 'load.clients×window×payloadBytes'
      fieldName: name => name.replace(/(^|[×+*,]\s*)load\./g, '$1')});
    const group = (legend, names, id) => h('fieldset', {class: 'field-set', id},
      h('legend', {}, legend), h('div', {class: 'fields'}, names.map(n => form.fields.get(n).box)));
    const examples = requestExamples(docs, '/api/recommendations');
    const summary = h('div', {id: 'recommendation-form-problems', class: 'form-problems', tabindex: '-1',
      hidden: true});
    const submit = h('button', {type: 'submit', id: 'recommendation-submit', class: 'primary'},
      'Get a recommendation');
    const exampleSel = h('select', {id: 'recommendation-example', onchange: () => {
      const ex = examples.find(x => x.name === exampleSel.value);
      form.setValues(ex ? flatRecommendation(ex.value) : {});
      summary.hidden = true;
    }}, h('option', {value: ''}, 'defaults'), examples.map(ex => h('option', {value: ex.name}, ex.summary)));
    const el = h('form', {id: 'recommendation-form', novalidate: true},
      h('p', {class: 'lead'}, request.description || '', ' The candidates race round by round, each repetition '
        + 'in a fresh JVM, until one is established best, they tie, or the budget ends. Leave a list empty for '
        + 'the service\'s default candidates.'),
      examples.length ? h('p', {class: 'examples'}, h('label', {for: 'recommendation-example'}, 'Start from '),
        exampleSel) : null,
      summary,
      group('The load', loadNames, 'recommendation-load'),
      group('The race', raceNames, 'recommendation-race'),
      actions(submit, exampleSel, form, summary));
    submitsTo(el, form, summary, submit, '/api/recommendations', 'recommendations', 'The recommendation',
      body => {
        const race = {...body};
        const loadBody = {};
        for (const n of loadNames) {
          if (n in race) loadBody[n] = race[n];
          delete race[n];
        }
        return {...race, load: loadBody};
      });
    fill(root, heading(title), el);
    refocus(root);
    if (params.get('from')) {
      try {
        const r = await getJson(`/api/recommendations/${encodeURIComponent(params.get('from'))}`);
        form.setValues(flatRecommendation(r.spec));
      } catch (e) {
        root.insertBefore(errorNotice(e, 'Reading the recommendation to copy'), el);
      }
    }
  });
}
