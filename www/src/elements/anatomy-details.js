// The details panel of <tb-anatomy>: what the selected part does, its weights' and activations'
// shapes at T, and its parameters per block, in all and as a share of the model. Every number is the
// Report's (count in the wasm); this words and formats them.

import { h } from './base.js';
import { formatInteger } from '../format.js';
import { formatShare } from '../format-anatomy.js';
import { NO_PARAMETERS, describePart } from './anatomy-text.js';

/** The activations a parameter-free part shows; every other part shows those whose `part` is its key. */
const ACTIVATIONS_OF = {
  attention_add: ['stream'],
  feed_forward_add: ['stream'],
  activation: ['feed_forward_hidden'],
  logits: ['logits'],
};

/** "768 × 3,072" */
export function shapeText(shape) {
  return shape.map((n) => formatInteger(n)).join(' × ');
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
function activationLines(a) {
  const name = capitalise(a.name);
  const full = `${shapeText(a.shape)} (${a.shape_symbols.join(' × ')})`;
  const sym = a.shape_symbols;
  if (sym.length >= 2 && sym[sym.length - 1] === 'T' && sym[sym.length - 2] === 'T') {
    return [`${name}, per head ${shapeText(a.shape.slice(-2))} (T × T)`, `${name}, all heads ${full}`];
  }
  return [`${name} ${full}`];
}

function weightLine(c) {
  let text = `${c.name} ${shapeText(c.shape)} (${c.shape_symbols.join(' × ')})`;
  if (c.tied) text += ': tied, the token table read transposed, no parameters of its own';
  else if (c.copies > 1) text += `, ${formatInteger(c.copies)} copies, ${formatInteger(c.active_copies)} used per token`;
  return text;
}

/** "all 12 blocks"; "both blocks"; "its one block". */
function allBlocks(n) {
  if (n === 1) return 'its one block';
  if (n === 2) return 'both blocks';
  return `all ${formatInteger(n)} blocks`;
}

function paramsSentence(report, key) {
  const part = report.parts.find((p) => p.part === key);
  if (!part) return NO_PARAMETERS;
  if (part.params === 0) {
    const table = report.parts.find((p) => p.part === 'token_table');
    return table
      ? `No parameters of its own: it reads the token table (${formatInteger(table.params)} parameters, counted there), transposed.`
      : 'No parameters of its own.';
  }
  let text = part.per_block
    ? `${formatInteger(part.params_each)} parameters per block, ${formatInteger(part.params)} across ${allBlocks(report.config.n_layers)}, ${formatShare(part.share)} of the model.`
    : `${formatInteger(part.params)} parameters, ${formatShare(part.share)} of the model.`;
  if (part.active !== part.params) {
    text += ` Any one token uses ${formatInteger(part.active_each)} of them per block, ${formatInteger(part.active)} in all.`;
  }
  return text;
}


/** The panel's nodes for part `key` of `report` (`item`: its diagram item, for its label). */
export function detailsNodes(report, key, item) {
  const out = [h('h3', {}, item ? item.label : key)];
  for (const text of describePart(key, report.config)) out.push(h('p', {}, text));

  const weights = report.components.filter((c) => c.part === key);
  if (weights.length) {
    out.push(h('h4', {}, 'Weights'), h('ul', { class: 'shapes' }, weights.map((c) => h('li', {}, weightLine(c)))));
  }
  const acts = activationsFor(report, key);
  if (acts.length) {
    out.push(
      h('h4', {}, `Activations at T = ${formatInteger(report.seq_len)}`),
      h('ul', { class: 'shapes' }, acts.flatMap(activationLines).map((t) => h('li', {}, t))),
    );
  }
  out.push(h('p', { class: 'params' }, paramsSentence(report, key)));
return out;
}

