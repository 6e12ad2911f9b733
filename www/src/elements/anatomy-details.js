// The details panel of <tb-anatomy>: what the selected part does, its weights' and activations'
// shapes at T, and its parameters per block, in all and as a share of the model. Every number is the
// Report's (count in the wasm); this words them (in the language of `t`) and formats them.

import { h } from './base.js';
import { formatInteger } from '../format.js';
import { formatShare } from '../format-anatomy.js';
import { speakEnglish, translator } from '../i18n.js';
import { describePart, noParameters } from './anatomy-text.js';
import anatomyTexts from '../locales/en/anatomy.js';

speakEnglish(anatomyTexts);

/** The activations a parameter-free part shows; every other part shows those whose `part` is its key. */
const ACTIVATIONS_OF = {
  attention_add: ['stream'],
  feed_forward_add: ['stream'],
  activation: ['feed_forward_hidden'],
  logits: ['logits'],
};

/**
 * The catalog key of each tensor the library names in words (count(...).components[].name); the
 * others (W_Q, b_1, …) are symbols and stay. A mixture of experts' feed-forward tensors end in
 * " (each expert)".
 */
const TENSOR_KEYS = {
  'token table': 'anatomy.tensorTokenTable',
  'position table': 'anatomy.tensorPositionTable',
  'attention norm gain γ': 'anatomy.tensorAttentionNormGain',
  'attention norm bias β': 'anatomy.tensorAttentionNormBias',
  'feed-forward norm gain γ': 'anatomy.tensorFeedForwardNormGain',
  'feed-forward norm bias β': 'anatomy.tensorFeedForwardNormBias',
  'final norm gain γ': 'anatomy.tensorFinalNormGain',
  'final norm bias β': 'anatomy.tensorFinalNormBias',
};
const EACH_EXPERT = ' (each expert)';

/** The catalog key of each activation's name (count(...).activations[].name), as the list shows it. */
const ACTIVATION_KEYS = {
  'token ids': 'anatomy.actTokenIds',
  'token vectors': 'anatomy.actTokenVectors',
  'position vectors': 'anatomy.actPositionVectors',
  'residual stream': 'anatomy.actStream',
  'normalised copy': 'anatomy.actNormalisedCopy',
  'q, k, v side by side': 'anatomy.actQkv',
  queries: 'anatomy.actQueries',
  keys: 'anatomy.actKeys',
  values: 'anatomy.actValues',
  'queries per head': 'anatomy.actQueriesPerHead',
  'keys per head': 'anatomy.actKeysPerHead',
  'values per head': 'anatomy.actValuesPerHead',
  scores: 'anatomy.actScores',
  'attention weights (softmax of the scores)': 'anatomy.actAttentionWeights',
  'heads joined': 'anatomy.actHeadsJoined',
  'attention output': 'anatomy.actAttentionOutput',
  'router scores': 'anatomy.actRouterScores',
  'hidden layer of each chosen expert': 'anatomy.actHiddenExperts',
  'hidden layer': 'anatomy.actHidden',
  'feed-forward output': 'anatomy.actFeedForwardOutput',
  'final normalised stream': 'anatomy.actFinalNormalised',
  logits: 'anatomy.actLogits',
};

/** "768 × 3,072" (in the locale of `t`) */
export function shapeText(shape, t = translator('en')) {
  return shape.map((n) => formatInteger(n, t.locale)).join(' × ');
}

function tensorName(name, t) {
  const each = name.endsWith(EACH_EXPERT);
  const base = each ? name.slice(0, -EACH_EXPERT.length) : name;
  const shown = TENSOR_KEYS[base] ? t(TENSOR_KEYS[base]) : base;
  return each ? t('anatomy.eachExpert', { name: shown }) : shown;
}

/** "scores" -> "Scores"; a name that starts with a one-letter symbol ("q, k, v …") stays as it is. */
function capitalise(text) {
  return /^\p{L}\p{L}/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The activations the details panel lists for `key`. */
function activationsFor(report, key) {
  const keys = ACTIVATIONS_OF[key];
  return keys ? report.activations.filter((a) => keys.includes(a.key)) : report.activations.filter((a) => a.part === key);
}

/** One or two lines for an activation; a T × T one also gets its per-head slice. */
function activationLines(a, t) {
  const name = ACTIVATION_KEYS[a.name] ? t(ACTIVATION_KEYS[a.name]) : capitalise(a.name);
  const full = { shape: shapeText(a.shape, t), symbols: a.shape_symbols.join(' × ') };
  const sym = a.shape_symbols;
  if (sym.length >= 2 && sym[sym.length - 1] === 'T' && sym[sym.length - 2] === 'T') {
    return [
      t('anatomy.shapePerHead', { name, shape: shapeText(a.shape.slice(-2), t), symbols: 'T × T' }),
      t('anatomy.shapeAllHeads', { name, ...full }),
    ];
  }
  return [t('anatomy.shape', { name, ...full })];
}

function weightLine(c, t) {
  const n = (x) => formatInteger(x, t.locale);
  const weight = t('anatomy.shape', { name: tensorName(c.name, t), shape: shapeText(c.shape, t), symbols: c.shape_symbols.join(' × ') });
  if (c.tied) return t('anatomy.weightTied', { weight });
  if (c.copies > 1) return t('anatomy.weightCopies', { weight, copies: n(c.copies), used: n(c.active_copies), count: c.active_copies });
  return weight;
}

/** "all 12 blocks"; "both blocks"; "its one block". */
function allBlocks(count, t) {
  if (count === 1) return t('anatomy.blocksOne');
  if (count === 2) return t('anatomy.blocksTwo');
  return t('anatomy.blocksAll', { blocks: formatInteger(count, t.locale), count });
}

function paramsSentence(report, key, t) {
  const n = (x) => formatInteger(x, t.locale);
  const part = report.parts.find((p) => p.part === key);
  if (!part) return noParameters(t);
  if (part.params === 0) {
    const table = report.parts.find((p) => p.part === 'token_table');
    return table ? t('anatomy.readsTokenTable', { params: n(table.params), count: table.params }) : t('anatomy.noneOfItsOwn');
  }
  const share = formatShare(part.share, t.locale);
  const sentence = part.per_block
    ? t('anatomy.paramsPerBlock', { each: n(part.params_each), params: n(part.params), blocks: allBlocks(report.config.n_layers, t), share, count: part.params_each })
    : t('anatomy.params', { params: n(part.params), share, count: part.params });
  if (part.active === part.params) return sentence;
  return t('anatomy.paramsActive', { sentence, each: n(part.active_each), all: n(part.active), count: part.active_each });
}

/** The panel's nodes for part `key` of `report` (`item`: its diagram item, for its label), in the language of `t`. */
export function detailsNodes(report, key, item, t = translator('en')) {
  const out = [h('h3', {}, item ? item.label : key)];
  for (const text of describePart(key, report.config, t)) out.push(h('p', {}, text));

  const weights = report.components.filter((c) => c.part === key);
  if (weights.length) {
    out.push(h('h4', {}, t('anatomy.weights')), h('ul', { class: 'shapes' }, weights.map((c) => h('li', {}, weightLine(c, t)))));
  }
  const acts = activationsFor(report, key);
  if (acts.length) {
    out.push(
      h('h4', {}, t('anatomy.activationsAt', { seqLen: formatInteger(report.seq_len, t.locale) })),
      h('ul', { class: 'shapes' }, acts.flatMap((a) => activationLines(a, t)).map((text) => h('li', {}, text))),
    );
  }
  out.push(h('p', { class: 'params' }, paramsSentence(report, key, t)));
  return out;
}
