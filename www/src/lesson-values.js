// The numbers a lesson's prose quotes, looked up in what the wasm returned. Pure functions (no DOM);
// the wasm facade is passed in, so Node's unit tests can hand them a stand-in. Nothing here computes a
// model number: it picks one out of a result by a dotted path, and formats it.
//
//   lookup(report, 'groups.attention.share')              -> { value: 0.2278... }
//   lookup(report, 'memory.kv_cache_per_token.bf16/fp16.bytes')
//   lookup(report, 'nope')                                -> { error: 'unknown value path: nope ...' }

import { clipText, parseWhole } from './attributes.js';
import { errorText } from './library-messages.js';
import {
  formatBytes,
  formatCompact,
  formatDecimal,
  formatInteger,
  formatPercent,
  formatScientific,
  formatSI,
  formatVector,
} from './format.js';

/** Fields that name an item of a list, tried in this order: `parts.attention`, `components.W_K`. */
export const ITEM_KEYS = ['key', 'name', 'part', 'group', 'dtype'];

/**
 * The value at a dotted `path` inside `data` (blank: `data` itself): { value } or { error }. A segment selects an object's
 * field, a list's item by index ("0"), or a list's item whose key/name/part/group/dtype equals it.
 */
export function lookup(data, path) {
  const text = String(path ?? '').trim();
  if (text === '') return { value: data }; // the whole result: example_balance returns one number
  let here = data;
  const walked = [];
  for (const segment of text.split('.')) {
    const found = step(here, segment);
    if (found === undefined) {
      return { error: `unknown value path: ${clipText(text)} (at "${clipText(segment)}"${hint(here, walked)})` };
    }
    walked.push(segment);
    here = found;
  }
  return { value: here };
}

function step(here, segment) {
  if (Array.isArray(here)) {
    if (/^\d+$/.test(segment)) return here[Number(segment)];
    for (const key of ITEM_KEYS) {
      const matches = here.filter((item) => item && typeof item === 'object' && item[key] === segment);
      if (matches.length > 0) return matches[0];
    }
    return undefined;
  }
  if (here !== null && typeof here === 'object' && Object.hasOwn(here, segment)) return here[segment];
  return undefined;
}

/** What could have come next, to put in the message: a few field names or item names. */
function hint(here, walked) {
  const where = walked.length ? ` after ${walked.join('.')}` : '';
  let options = [];
  if (Array.isArray(here)) {
    options = here
      .map((item, i) => (item && typeof item === 'object' ? ITEM_KEYS.map((k) => item[k]).find((v) => typeof v === 'string') : undefined) ?? String(i));
  } else if (here !== null && typeof here === 'object') {
    options = Object.keys(here);
  } else {
    return `${where}: that is a single value already`;
  }
  const shown = options.slice(0, 12).join(', ') + (options.length > 12 ? ', …' : '');
  return `${where}; try one of: ${shown}`;
}

/**
 * The sources a number can come from: the model report, or a worked example with its lesson
 * defaults. `call(lib, inputs)` runs the facade itself; otherwise `fn` is the facade's function and
 * `args(defaults)` its arguments from example_defaults(), unless the author gives `args` (a JSON list).
 * `model`: the source runs TinyGPT, so it needs the whole facade (sourceNeedsModel).
 */
export const SOURCES = {
  count: { call: (lib, { model, seqLen, batch }) => lib.count(model, seqLen, batch) },
  defaults: { call: (lib) => lib.example_defaults() },
  // Training TinyGPT: the defaults, the corpus and its reference losses; the model the page ships.
  'training-data': { model: true, call: (lib) => lib.train_defaults() },
  'shipped-model-six': { model: true, call: (lib) => shippedInfo(lib.CharModel.six_blocks()) },
  'shipped-model': { model: true, call: (lib) => shippedInfo(lib.CharModel.shipped()) },
  // Where each head looks over the held-out text: the shipped model, the six-block one, and the
  // lessons' TinyGPT before training (seed 0).
  heads: { model: true, call: (lib) => headSummaries(lib.CharModel.shipped()) },
  'heads-six': { model: true, call: (lib) => headSummaries(lib.CharModel.six_blocks()) },
  'heads-untrained': { model: true, call: (lib) => headSummaries(lib.CharModel.untrained(0)) },
  'training-run': { fn: 'training_run', args: (d) => [d.training_run.params, nanoGptTokens(d), d.training_run.peak, d.training_run.utilisation] },
  'example:residual': { fn: 'example_residual', args: (d) => [d.residual.x, d.residual.attention, d.residual.feed_forward] },
  'example:layernorm': { fn: 'example_layernorm', args: (d) => [d.layernorm] },
  'example:gelu': { fn: 'example_gelu', args: (d) => [d.gelu] },
  'example:feed-forward': { fn: 'example_feed_forward', args: (d) => [d.feed_forward.d] },
  'example:tiny-gpt': { fn: 'example_tiny_gpt', args: (d) => [d.tiny_gpt.ids, d.seed] },
  'example:tied-output': { fn: 'example_tied_output', args: (d) => [d.tied_output.normed, d.tied_output.table] },
  'example:masks': { fn: 'example_masks', args: (d) => [d.masks.n_tokens, d.masks.position, d.seed] },
  'example:param-count': { fn: 'example_param_count', args: () => [] },
  'example:moe-routing': { fn: 'example_moe_routing', args: (d) => [d.moe.scores, d.moe.k] },
  'example:moe-sizes': { fn: 'example_moe_sizes', args: (d) => [d.moe.d, d.moe.n_experts, d.moe.k] },
  'example:balance': { fn: 'example_balance', args: (d) => d.balance.all_to_one },
  'example:flops': { fn: 'example_flops', args: (d) => [d.flops.infer_params, 1] },
};

/** A shipped model's info() (its shape and how it was trained), the model freed after. */
function shippedInfo(model) {
  try {
    return model.info();
  } finally {
    model.free();
  }
}

/** A model's head summaries over the held-out text (CharModel.head_summaries), the model freed after. */
function headSummaries(model) {
  try {
    return model.head_summaries();
  } finally {
    model.free();
  }
}

/** D of nanoGPT's GPT-2 run (tokens per iteration × iterations, as the crate gives it). */
function nanoGptTokens(d) {
  return d.training_run.tokens;
}

/** Source names as authors may write them: underscores or hyphens, "example:" optional for examples. */
export function sourceKey(text) {
  const t = String(text ?? '').trim().toLowerCase().replaceAll('_', '-');
  if (t === '') return { value: 'count' };
  if (Object.hasOwn(SOURCES, t)) return { value: t };
  if (Object.hasOwn(SOURCES, `example:${t}`)) return { value: `example:${t}` };
  return { error: `unknown source: ${clipText(text)} (choose one of ${Object.keys(SOURCES).join(', ')})` };
}

/** A JSON list of arguments typed in an attribute: { value } (undefined when blank) or { error }. */
export function parseArgs(text) {
  if (text === null || text === undefined || String(text).trim() === '') return { value: undefined };
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: `args is not a JSON list: ${clipText(text)} (write one in brackets, like [768, 4])` };
  }
  if (!Array.isArray(parsed)) return { error: `args must be a JSON list of arguments, like [768, 4]: ${clipText(text)}` };
  return { value: parsed };
}

/** Runs one source on the facade `lib`. Throws the library's own error (which says what is allowed). */
/** Whether the source named `key` (a tb-number's source attribute; null: count) runs TinyGPT. */
export function sourceNeedsModel(key) {
  return Boolean(SOURCES[key ?? 'count']?.model);
}

export function runSource(lib, key, { model = 'gpt2-small', seqLen = 8, batch = 1, args } = {}) {
  const source = SOURCES[key];
  if (source.call) return source.call(lib, { model, seqLen, batch });
  const list = args ?? source.args(lib.example_defaults());
  return lib[source.fn](...list);
}

// Each takes the value, the digits attribute, and the locale (format.js) the number is written in.
const FORMATS = {
  integer: (x, _, l) => formatInteger(x, l),
  compact: (x, _, l) => formatCompact(x, l),
  percent: (x, _, l) => formatPercent(x, l),
  si: (x, _, l) => formatSI(x, undefined, l),
  'si-k': (x, _, l) => formatSI(x, 'k', l),
  'si-M': (x, _, l) => formatSI(x, 'M', l),
  'si-G': (x, _, l) => formatSI(x, 'G', l),
  'si-T': (x, _, l) => formatSI(x, 'T', l),
  'si-P': (x, _, l) => formatSI(x, 'P', l),
  scientific: (x, digits, l) => formatScientific(x, digits ?? 3, l),
  bytes: (x, _, l) => formatBytes(x, l),
  decimal: (x, digits, l) => formatDecimal(x, digits ?? 3, l),
  vector: (xs, digits, l) => formatVector(xs, digits ?? 3, l),
  shape: (xs, _, l) => xs.map((n) => formatInteger(n, l)).join(' × '),
  text: (x) => String(x),
};

export const FORMAT_NAMES = Object.keys(FORMATS);

/**
 * The value as text in `format` (blank: integer for whole numbers, decimal otherwise, text for
 * words): { text } or { error }. `digits`: decimal places (decimal, vector) or significant digits
 * (scientific); `locale` the language it is written in (format.js; English by default).
 */
export function formatValue(value, format, digits, locale = 'en') {
  const name = String(format ?? '').trim();
  let f = name;
  if (f === '') {
    if (typeof value === 'string') f = 'text';
    else if (Array.isArray(value)) f = 'vector';
    else f = Number.isSafeInteger(value) ? 'integer' : 'decimal';
  }
  if (!Object.hasOwn(FORMATS, f)) return { error: `unknown format: ${clipText(name)} (choose one of ${FORMAT_NAMES.join(', ')})` };
  const wantsList = f === 'vector' || f === 'shape';
  if (wantsList ? !(Array.isArray(value) && value.every((x) => typeof x === 'number')) : f !== 'text' && typeof value !== 'number') {
    return { error: `not a ${wantsList ? 'list of numbers' : 'number'}: ${describe(value)}` };
  }
  try {
    return { text: FORMATS[f](value, digits, locale) };
  } catch (err) {
    return { error: `cannot show ${describe(value)} as ${f}: ${err.message}` };
  }
}

function describe(value) {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value !== null && typeof value === 'object') return `an object (${Object.keys(value).slice(0, 6).join(', ')})`;
  return JSON.stringify(value);
}

/** parseWhole's message without its "; using 8": a number in prose shows no default in its place. */
function withoutFallback(message) {
  return message.replace(/; using .*$/, '');
}

/**
 * What a <tb-number> with these attributes shows: { text } or { error } (a message naming what is
 * wrong). `attr(name)` gives an attribute's trimmed text or null; `run(key, inputs)` runs a source
 * (default: runSource on `lib`; the element passes one that caches). The element and the build's
 * prose extraction (scripts/extract-prose.mjs) both call this, so the corpus reads as the page does.
 * `locale`: the language the number is written in (the element's; English by default); `t`, its
 * translator, words the library's messages in that language.
 */
export function numberFromAttributes(lib, attr, run = (key, inputs) => runSource(lib, key, inputs), locale = 'en', t = null) {
  const source = sourceKey(attr('source') ?? 'count');
  if (source.error) return source;
  const seqLen = parseWhole('seq-len', attr('seq-len'), 8);
  if (seqLen.error) return { error: withoutFallback(seqLen.error) };
  const batch = parseWhole('batch', attr('batch'), 1);
  if (batch.error) return { error: withoutFallback(batch.error) };
  const args = parseArgs(attr('args'));
  if (args.error) return args;
  let result;
  try {
    result = run(source.value, { model: attr('model') ?? 'gpt2-small', seqLen: seqLen.value, batch: batch.value, args: args.value });
  } catch (err) {
    return { error: errorText(err, t) };
  }
  const found = lookup(result, attr('value') ?? '');
  if (found.error) return found;
  const digits = parseWhole('digits', attr('digits'), undefined);
  if (digits.error) return { error: withoutFallback(digits.error) };
  return formatValue(found.value, attr('format') ?? '', digits.value, locale);
}
