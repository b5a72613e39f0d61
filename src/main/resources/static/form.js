// A form generated from an OpenAPI request schema: one labelled input per property, with the property's
// description, default and allowed range as help text, and a slot for the server's error next to each input.

import {h, fill} from './dom.js';
import {humanize, int, isNum} from './format.js';

/** The schema of a path's JSON request body ($ref resolved), or components.schemas[fallbackName], or null. */
export function requestSchema(apiDocs, path, fallbackName) {
  const content = apiDocs?.paths?.[path]?.post?.requestBody?.content;
  const media = content && (content['application/json'] || Object.values(content)[0]);
  const schema = resolve(apiDocs, media?.schema) || apiDocs?.components?.schemas?.[fallbackName];
  return schema && schema.properties ? schema : null;
}

/** The request body examples of a path: [{name, summary, value}]. */
export function requestExamples(apiDocs, path) {
  const content = apiDocs?.paths?.[path]?.post?.requestBody?.content;
  const examples = content?.['application/json']?.examples || {};
  return Object.entries(examples)
    .map(([name, ex]) => ({name, summary: ex.summary || name, value: parseExample(ex.value)}))
    .filter(ex => ex.value && typeof ex.value === 'object');
}

function parseExample(v) {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

export function resolve(apiDocs, schema, depth = 0) {
  if (!schema || depth > 10) return schema || null;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    return resolve(apiDocs, apiDocs?.components?.schemas?.[name], depth + 1);
  }
  // OpenAPI 3.1 nullable types: {type: ['integer', 'null']}
  if (Array.isArray(schema.type)) return {...schema, type: schema.type.find(t => t !== 'null')};
  if (schema.oneOf || schema.anyOf) {
    const alt = (schema.oneOf || schema.anyOf).find(s => s.type !== 'null');
    return {...resolve(apiDocs, alt, depth + 1), ...schema, oneOf: undefined, anyOf: undefined};
  }
  return schema;
}

/** The allowed range of a numeric schema in words: "16 … 65,507", "more than 0, at most 3,600". */
export function rangeText(p) {
  const n = x => (Number.isInteger(x) ? int(x) : String(x));
  const exclusiveMin = isNum(p.exclusiveMinimum) ? p.exclusiveMinimum
    : p.exclusiveMinimum === true && isNum(p.minimum) ? p.minimum : null;
  const exclusiveMax = isNum(p.exclusiveMaximum) ? p.exclusiveMaximum
    : p.exclusiveMaximum === true && isNum(p.maximum) ? p.maximum : null;
  const min = exclusiveMin === null && isNum(p.minimum) ? p.minimum : null;
  const max = exclusiveMax === null && isNum(p.maximum) ? p.maximum : null;
  if (min !== null && max !== null) return `${n(min)} … ${n(max)}`;
  const parts = [];
  if (exclusiveMin !== null) parts.push(`more than ${n(exclusiveMin)}`);
  if (min !== null) parts.push(`at least ${n(min)}`);
  if (exclusiveMax !== null) parts.push(`less than ${n(exclusiveMax)}`);
  if (max !== null) parts.push(`at most ${n(max)}`);
  return parts.join(', ');
}

/** Whether every property of an object schema is a number: such an object is written as a tuple, 16×16. */
function numericTuple(item) {
  return Object.values(item.properties).every(v => v.type === 'integer' || v.type === 'number');
}

function kindOf(p, item) {
  // nested objects (a run's placement, a matrix's agentGroups) are written as JSON
  if (p.type === 'object' || p.properties) return 'json';
  if (p.type === 'array') {
    if (item?.enum) return 'enum-list';
    if (item?.type === 'object' && item.properties) return numericTuple(item) ? 'tuple-list' : 'json';
    if (item?.type === 'integer' || item?.type === 'number') return 'number-list';
    return 'text-list';
  }
  if (p.enum) return 'enum';
  if (p.type === 'boolean') return p.default === undefined ? 'tristate' : 'boolean';
  if (p.type === 'integer' || p.type === 'number') return 'number';
  return 'text';
}

function showValue(v) {
  if (Array.isArray(v)) return v.map(showValue).join(', ');
  if (v && typeof v === 'object') return Object.values(v).join('×');
  if (typeof v === 'number') return Number.isInteger(v) ? int(v) : String(v);
  return String(v);
}

/**
 * new SchemaForm(apiDocs, schema, {idPrefix}) builds .element; read() gives {body, errors}; setValues(obj);
 * reset(); showProblem(apiError) maps the server's violations to the inputs. The schema's required names are marked
 * as such. fieldName maps a field name the service reports to this form's, for a form whose request nests some of its
 * fields ('load.clients' → 'clients').
 */
export class SchemaForm {
  constructor(apiDocs, schema, {idPrefix = 'f', defaultsNote = null, aliases = {}, fieldName = n => n} = {}) {
    this.prefix = idPrefix;
    this.aliases = aliases;
    this.fieldName = fieldName;
    this.fields = new Map();
    this.element = h('div', {class: 'fields'});
    const required = new Set(schema.required || []);
    for (const [name, raw] of Object.entries(schema.properties)) {
      const p = resolve(apiDocs, raw);
      const item = p.type === 'array' ? resolve(apiDocs, p.items) : null;
      const field = this.#build(name, p, item, kindOf(p, item), defaultsNote, required.has(name));
      this.fields.set(name, field);
      this.element.append(field.box);
    }
    this.reset();
  }

  #id(kind, name) {
    return `${this.prefix}-${kind}-${name}`;
  }

  #build(name, p, item, kind, defaultsNote, required) {
    const inputId = this.#id('input', name);
    const helpId = this.#id('help', name);
    const errorId = this.#id('error', name);
    const meta = [];
    if (p.default !== undefined) meta.push(`Default ${showValue(p.default)}`);
    else if (p.example !== undefined && p.example !== null && kind !== 'enum-list') {
      meta.push(`e.g. ${showValue(p.example)}`);
    }
    else if (defaultsNote && kind === 'enum-list') meta.push(defaultsNote.replace(/^Empty/, 'None ticked'));
    else if (defaultsNote && kind !== 'tristate') meta.push(defaultsNote);
    const range = rangeText(item && kind === 'number-list' ? item : p);
    if (range) meta.push(`allowed ${range}`);
    if (kind === 'number-list' || kind === 'text-list') meta.push('comma-separated');
    if (kind === 'tuple-list') meta.push(`comma-separated ${Object.keys(item.properties).join('×')}, e.g. 16×16`);
    if (kind === 'json') meta.push('JSON');
    const help = h('p', {class: 'help', id: helpId}, p.description || '', p.description ? ' ' : '',
      meta.length ? h('span', {class: 'meta'}, meta.join(' · ')) : null);
    const error = h('p', {class: 'field-error', id: errorId, hidden: true});
    const labelText = [humanize(name), ' ', h('code', {}, name), required ? ' (required)' : null];
    const describedBy = `${helpId} ${errorId}`;
    const field = {name, p, item, kind, error, box: null, control: null, checkboxes: null};

    if (kind === 'enum-list') {
      field.checkboxes = item.enum.map(v => h('input', {type: 'checkbox', name, value: v,
        id: `${inputId}-${v}`}));
      field.control = field.checkboxes[0];
      field.box = h('fieldset', {class: 'field field-group', id: this.#id('field', name), dataset: {field: name},
        'aria-describedby': describedBy},
        h('legend', {}, labelText),
        h('div', {class: 'choices'}, field.checkboxes.map((c, i) =>
          h('label', {class: 'choice'}, c, ' ', item.enum[i]))),
        help, error);
      return field;
    }
    if (kind === 'boolean') {
      field.control = h('input', {type: 'checkbox', id: inputId, name, 'aria-describedby': describedBy});
      field.box = h('div', {class: 'field field-boolean', id: this.#id('field', name), dataset: {field: name}},
        h('label', {for: inputId}, field.control, ' ', labelText), help, error);
      return field;
    }
    if (kind === 'enum') {
      field.control = h('select', {id: inputId, name, 'aria-describedby': describedBy},
        p.enum.map(v => h('option', {value: v}, v === p.default ? `${v} (default)` : v)));
    } else if (kind === 'tristate') {
      field.control = h('select', {id: inputId, name, 'aria-describedby': describedBy},
        h('option', {value: ''}, 'the service\'s default'), h('option', {value: 'true'}, 'yes'),
        h('option', {value: 'false'}, 'no'));
    } else {
      const numeric = kind === 'number' || kind === 'number-list';
      field.control = h('input', {type: 'text', id: inputId, name, autocomplete: 'off', spellcheck: 'false',
        inputmode: kind === 'number' ? (p.type === 'integer' ? 'numeric' : 'decimal') : null,
        placeholder: p.default !== undefined ? showValue(p.default) : required ? 'required'
          : (numeric || kind === 'tuple-list' ? 'server default' : null),
        'aria-required': required ? 'true' : null, 'aria-describedby': describedBy});
    }
    field.box = h('div', {class: 'field', id: this.#id('field', name), dataset: {field: name}},
      h('label', {for: inputId}, labelText), field.control, help, error);
    return field;
  }

  /** Every field back to its schema default (or empty: the server's default). */
  reset() {
    for (const f of this.fields.values()) this.#set(f, f.p.default);
    this.clearErrors();
  }

  /** Defaults first, then the given values (e.g. an OpenAPI example). */
  setValues(values) {
    this.reset();
    for (const [name, v] of Object.entries(values || {})) {
      const f = this.fields.get(name);
      if (f) this.#set(f, v);
    }
  }

  #set(f, v) {
    switch (f.kind) {
      case 'enum-list':
        f.checkboxes.forEach(c => (c.checked = Array.isArray(v) && v.includes(c.value)));
        break;
      case 'boolean':
        f.control.checked = v === true;
        break;
      case 'tristate':
        f.control.value = v === true ? 'true' : v === false ? 'false' : '';
        break;
      case 'enum':
        f.control.value = v ?? f.p.enum[0];
        break;
      case 'tuple-list':
        f.control.value = Array.isArray(v) ? v.map(x => Object.values(x).join('×')).join(', ') : '';
        break;
      case 'json':
        f.control.value = v === undefined || v === null ? '' : JSON.stringify(v);
        break;
      default:
        f.control.value = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
    }
  }

  /** {body, errors}: body holds every filled-in field; errors maps a field to what is wrong before sending. */
  read() {
    const body = {};
    const errors = new Map();
    const number = (text, type, name) => {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return text; // sent as typed: the service names the problem
      if (type === 'integer' && !Number.isInteger(n)) {
        errors.set(name, `${name}: ${text} is not a whole number`);
      }
      return n;
    };
    for (const f of this.fields.values()) {
      const {name, p, item} = f;
      if (f.kind === 'enum-list') {
        const checked = f.checkboxes.filter(c => c.checked).map(c => c.value);
        if (checked.length) body[name] = checked;
        continue;
      }
      if (f.kind === 'boolean') {
        body[name] = f.control.checked;
        continue;
      }
      const text = f.control.value.trim();
      if (text === '') continue; // omitted: the service's default
      if (f.kind === 'tristate') body[name] = text === 'true';
      else if (f.kind === 'enum' || f.kind === 'text') body[name] = text;
      else if (f.kind === 'number') body[name] = number(text, p.type, name);
      else if (f.kind === 'json') {
        try {
          body[name] = JSON.parse(text);
        } catch (e) {
          errors.set(name, `${name}: not JSON (${e.message})`);
        }
      }
      else {
        const tokens = text.split(/[,;\s]+/).filter(Boolean);
        if (f.kind === 'number-list') body[name] = tokens.map(t => number(t, item.type, name));
        else if (f.kind === 'text-list') body[name] = tokens;
        else {
          const keys = Object.keys(item.properties);
          body[name] = tokens.map(t => {
            const parts = t.split(/[×x*X:/]/);
            if (parts.length !== keys.length) {
              errors.set(name, `${name}: '${t}' is not ${keys.join('×')}, e.g. 16×16`);
              return t;
            }
            return Object.fromEntries(keys.map((k, i) =>
              [k, number(parts[i], resolve(null, item.properties[k])?.type, name)]));
          });
        }
      }
    }
    return {body, errors};
  }

  clearErrors() {
    for (const f of this.fields.values()) {
      f.error.hidden = true;
      fill(f.error);
      f.box.classList.remove('invalid');
      (f.checkboxes || [f.control]).forEach(c => c.removeAttribute('aria-invalid'));
    }
  }

  /**
   * The input a problem's field name belongs to: 'payloadBytes', 'payloads[1]', 'profiles.[0].clients', or a name
   * the aliases map to an input.
   */
  fieldFor(name) {
    if (!name) return null;
    name = this.fieldName(String(name));
    const base = String(name).split(/[.[]/)[0];
    return this.fields.get(name) || this.fields.get(base) || this.fields.get(this.aliases[name])
      || this.fields.get(this.aliases[base]) || null;
  }

  /** The fields a rule names: one, or several for a cross-field rule ('clients×window×payloadBytes'). */
  fieldsFor(name) {
    const own = this.fieldName(String(name ?? ''));
    const names = [own, ...own.split(/\s*[×+*,]\s*/)];
    return [...new Set(names.map(n => this.fieldFor(n)).filter(Boolean))];
  }

  /**
   * Shows messages next to their fields: messages is [{field, message}]. A cross-field rule such as
   * 'clients×window×payloadBytes' or 'warmupSeconds+seconds' shows next to each field it names. Returns the
   * messages that belong to no field, and focuses the first invalid input.
   */
  showErrors(messages) {
    this.clearErrors();
    const unplaced = [];
    let first = null;
    for (const m of messages) {
      const targets = this.fieldsFor(m.field);
      if (!targets.length) {
        unplaced.push(m);
        continue;
      }
      for (const f of targets) {
        f.error.hidden = false;
        f.error.append(h('span', {}, m.message));
        f.box.classList.add('invalid');
        (f.checkboxes || [f.control]).forEach(c => c.setAttribute('aria-invalid', 'true'));
        first = first || f;
      }
    }
    if (first) first.control.focus();
    return unplaced;
  }

  /** The input id of a field (for links from an error summary). */
  inputId(name) {
    const f = this.fieldsFor(name)[0];
    return f ? f.control.id : null;
  }
}
