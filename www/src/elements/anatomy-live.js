// <tb-anatomy> with TinyGPT: the selected part's live tensor, for a text the reader types, from the
// trained model the lesson is built on (the shipped one), beside the statistic the part is about:
// after a norm, each row's mean 0 and spread 1 before the gain; the stream, each position's size
// before and after each add; the feed-forward's hidden layer, the share of units GELU lets through;
// attention, the maps of every head. Every number is the library's (CharModel.inspect: the forward
// pass that computes the loss); this picks the tensors of a part and draws them.
//
//   const live = anatomyLive({ uid, lib });
//   live.element         // place it
//   live.show(key)       // the part selected in the diagram
//   live.release()       // free the model

import { h, errorText } from './base.js';
import { formatFixed, formatInteger, formatPercent } from '../format.js';
import { heatmapFigure, showChar, unknownNote } from './heatmap-figure.js';
import { attentionView } from './attention-view.js';
import { labelCells } from './table-cards.js';

const DEFAULT_TEXT = 'the residual';

/** The parts that live in a block, and the norms by their place. */
const PER_BLOCK = new Set(['attention_norm', 'attention', 'scores', 'attention_add', 'feed_forward_norm', 'feed_forward', 'activation', 'feed_forward_add']);
/** The parts shown as the heads' maps. */
const MAPS = new Set(['attention', 'scores']);

export const LIVE_CSS = `
.live { margin-top: 1rem; padding-top: 0.5rem; border-top: 1px solid var(--_rule); }
.live .controls input[type="text"] { flex: 1 1 10rem; min-width: 0; font-family: var(--_mono); }
.live table { font-size: 0.85rem; max-width: 40rem; }
.live th, .live td { padding: 0.1rem 0.4rem; }
.live caption { text-align: left; font-weight: 600; }
`;

/** A table of per-position figures: `columns` [[heading, values (one per position)]]. */
function positionTable(caption, symbols, columns, digits = 3) {
  const table = h(
    'table',
    { class: 'live-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Position'), columns.map(([name]) => h('th', { scope: 'col' }, name)))),
    h(
      'tbody',
      {},
      symbols.map((c, t) => h('tr', {}, h('th', { scope: 'row' }, `${t + 1} ${showChar(c)}`), columns.map(([, values]) => h('td', { class: 'num' }, formatFixed(values[t], digits))))),
    ),
  );
  return h('div', { class: 'cards' }, labelCells(table));
}

/** A tensor { shape: [T, n], data } as a heatmap figure, one row a position. */
function tensorMap(name, tensor, labels, note) {
  return heatmapFigure({ name, dims: tensor.shape, values: tensor.data, rowLabels: labels, note });
}

/** The views of the parts, from one inspection `r` (block `b` for the parts inside a block). */
const VIEWS = {
  token_table: (r, b, labels) => [
    h('p', {}, 'Each character picks its row of the token table: the first edit to the stream.'),
    tensorMap('token rows', r.tokens, labels, 'a row per position, the token table\u2019s row for its character'),
  ],
  position_table: (r, b, labels) => [
    h('p', {}, 'Each position adds its row of the position table, whatever the character.'),
    tensorMap('position rows', r.positions, labels, 'a row per position'),
  ],
  stream: (r, b, labels) => [
    h('p', {}, 'The stream\u2019s size at each position, entering the first block and right after each of its adds: each add is an edit, not a rewrite.'),
    positionTable(
      'Size of the stream (its length as a vector)',
      r.symbols,
      [
        ['entering block 0', r.blocks[0].stream_sizes.input.data],
        ...r.blocks.flatMap((blk) => [
          [`after attention's add ${blk.block}`, blk.stream_sizes.after_attention_add.data],
          [`after the feed-forward's add ${blk.block}`, blk.stream_sizes.after_feed_forward_add.data],
        ]),
      ],
      2,
    ),
    r.norm === 'post' ? h('p', { class: 'muted' }, 'Post-LN: a norm then rescales the stream after every add.') : null,
    tensorMap('stream entering block 0', r.embedded, labels),
  ],
  attention_add: (r, b, labels) => addView(r, r.blocks[b], labels, 'attention', r.blocks[b].attention_output, 'input', 'after_attention_add'),
  feed_forward_add: (r, b, labels) => addView(r, r.blocks[b], labels, 'the feed-forward', r.blocks[b].feed_forward_output, 'after_attention', 'after_feed_forward_add'),
  attention_norm: (r, b, labels) => normView(r.blocks[b].ln_1, r.symbols, labels, `ln_1 of block ${b}`),
  feed_forward_norm: (r, b, labels) => normView(r.blocks[b].ln_2, r.symbols, labels, `ln_2 of block ${b}`),
  final_norm: (r, b, labels) => normView(r.ln_f, r.symbols, labels, 'ln_f'),
  feed_forward: (r, b, labels) => [
    h('p', {}, `The hidden layer of block ${b}\u2019s feed-forward, before GELU: ${formatInteger(r.blocks[b].hidden.shape[1])} numbers a position.`),
    tensorMap('hidden, before GELU', r.blocks[b].hidden, labels),
    tensorMap('hidden, after GELU', r.blocks[b].hidden_gelu, labels),
  ],
  activation: (r, b, labels) => {
    const blk = r.blocks[b];
    return [
      h('p', { class: 'statistic' }, `GELU lets ${formatPercent(blk.gelu_open_share)} of block ${b}\u2019s hidden units through over this text: those whose input is positive, which it passes at more than half their size. The rest it squashes towards 0.`),
      positionTable('Share of hidden units let through', r.symbols, [['share', blk.gelu_open.data]], 3),
      tensorMap('hidden, after GELU', blk.hidden_gelu, labels),
    ];
  },
  output_head: (r, b, labels) => [
    h('p', {}, 'The final norm\u2019s output times the token table (tied): a score for every character at every position.'),
    tensorMap('logits', r.logits, labels),
    tensorMap('next-character probabilities', r.probabilities, labels, 'the softmax of each row of logits'),
  ],
};
VIEWS.logits = VIEWS.output_head;

function normView(norm, symbols, labels, name) {
  return [
    h('p', { class: 'statistic' }, `${name} takes each row of the stream, subtracts its mean and divides by its spread: before the gain and bias every row has mean 0 and spread 1.`),
    positionTable(
      `${name}, row by row`,
      symbols,
      [
        ['mean read', norm.input_mean.data],
        ['spread read', norm.input_spread.data],
        ['mean after', norm.normalized_mean.data],
        ['spread after', norm.normalized_spread.data],
      ],
      3,
    ),
    tensorMap(`${name} output (after the gain and bias)`, norm.output, labels),
  ];
}

function addView(r, blk, labels, what, delta, before, after) {
  return [
    h('p', { class: 'statistic' }, `What ${what} adds to the stream in block ${blk.block}, and the stream\u2019s size at each position before and after the add.`),
    positionTable('Size of the stream', r.symbols, [['before', blk.stream_sizes[before].data], ['after', blk.stream_sizes[after].data]], 2),
    tensorMap(`${what} adds`, delta, labels),
  ];
}

export function anatomyLive({ uid, lib }) {
  let model = null;
  let key = null;
  const textId = `${uid}-live-text`;
  const blockId = `${uid}-live-block`;
  const input = h('input', { id: textId, type: 'text', value: DEFAULT_TEXT, spellcheck: false, autocomplete: 'off' });
  const block = h('select', { id: blockId });
  const blockControl = h('span', { class: 'block-choice' }, h('label', { htmlFor: blockId }, 'Block'), ' ', block);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const unknown = h('p', { class: 'muted unknown', role: 'status' });
  const title = h('h4', {});
  const body = h('div', { class: 'live-body' });
  const attention = attentionView();
  const attentionBox = h('div', { class: 'attention-maps' }, ...attention.nodes);
  const element = h(
    'section',
    { class: 'live', role: 'group', 'aria-label': 'Live tensors' },
    h('h3', {}, 'Live: the shipped TinyGPT reading your text'),
    h('div', { class: 'controls' }, h('label', { htmlFor: textId }, 'Text'), input, blockControl),
    error,
    unknown,
    title,
    body,
  );
  let drawn = ''; // what is on show: part, text and block (the diagram re-selects on every T step)

  const ensureModel = () => {
    if (model) return true;
    try {
      model = lib.CharModel.shipped();
      const info = model.info();
      block.replaceChildren(...Array.from({ length: info.layers }, (_, i) => h('option', { value: String(i) }, `Block ${i}`)));
      return true;
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
      return false;
    }
  };

  const draw = () => {
    if (!key || !ensureModel()) return;
    const showing = [key, input.value, block.value].join('\u0000');
    if (showing === drawn) {
      error.hidden = true; // back to what is on show: no problem to report
      error.textContent = '';
      return;
    }
    const view = VIEWS[key];
    const maps = MAPS.has(key); // the heads' maps, of every block at once
    blockControl.hidden = maps || !PER_BLOCK.has(key);
    if (!view && !maps) {
      title.textContent = '';
      body.replaceChildren(h('p', { class: 'muted' }, 'This part has no tensor of its own to show.'));
      return;
    }
    let r;
    try {
      r = maps ? model.attention(input.value) : model.inspect(input.value);
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
      return; // the last good tensors stay
    }
    error.hidden = true;
    error.textContent = '';
    drawn = showing;
    unknown.textContent = unknownNote(r.unknown);
    const b = Number(block.value) || 0;
    title.textContent = `For "${r.symbols.map(showChar).join('')}" (${formatInteger(r.ids.length)} positions)${blockControl.hidden ? '' : `, block ${b}`}`;
    if (maps) {
      attention.update(r);
      return body.replaceChildren(h('p', {}, 'Each head\u2019s weights: the only stage where one position reads the others.'), attentionBox);
    }
    body.replaceChildren(...view(r, b, r.symbols.map(showChar)));
  };

  input.addEventListener('input', draw);
  block.addEventListener('change', draw);
  return {
    element,
    show(k) {
      key = k;
      draw();
    },
    release() {
      model?.free();
      model = null;
    },
  };
}
