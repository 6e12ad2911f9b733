// <tb-anatomy> with TinyGPT: the selected part's live tensor, for a text the reader types, from the
// trained model the lesson is built on (the shipped one), beside the statistic the part is about:
// after a norm, each row's mean 0 and spread 1 before the gain; the stream, each position's size
// before and after each add; the feed-forward's hidden layer, the share of units GELU lets through;
// attention, the maps of every head. Every number is the library's (CharModel.inspect: the forward
// pass that computes the loss); this picks the tensors of a part and draws them, in the language of
// `t` (the element's translator).
//
//   const live = anatomyLive({ uid, lib, t });
//   live.element         // place it
//   live.show(key)       // the part selected in the diagram
//   live.speak(t)        // the element's language now (its texts again, the tensors kept)
//   live.release()       // free the model

import { h, errorText } from './base.js';
import { formatFixed, formatInteger, formatPercent } from '../format.js';
import { heatmapFigure, showChar, unknownNote } from './heatmap-figure.js';
import { attentionView } from './attention-view.js';
import { labelCells } from './table-cards.js';
import { speakEnglish, translator } from '../i18n.js';
import anatomyTexts from '../locales/en/anatomy.js';

speakEnglish(anatomyTexts);

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
function positionTable(t, caption, symbols, columns, digits = 3) {
  const { locale } = t;
  const table = h(
    'table',
    { class: 'live-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('anatomy.livePosition')), columns.map(([name]) => h('th', { scope: 'col' }, name)))),
    h(
      'tbody',
      {},
      symbols.map((c, i) =>
        h('tr', {}, h('th', { scope: 'row' }, `${formatInteger(i + 1, locale)} ${showChar(c)}`), columns.map(([, values]) => h('td', { class: 'num' }, formatFixed(values[i], digits, locale)))),
      ),
    ),
  );
  return h('div', { class: 'cards' }, labelCells(table));
}

/** A tensor { shape: [T, n], data } as a heatmap figure, one row a position, worded by `t`. */
function tensorMap(t, name, tensor, labels, note) {
  return heatmapFigure({ name, dims: tensor.shape, values: tensor.data, rowLabels: labels, note, t });
}

/** The views of the parts, from one inspection `r` (block `b` for the parts inside a block), worded by `t`. */
const VIEWS = {
  token_table: (t, r, b, labels) => [
    h('p', {}, t('anatomy.liveTokenTable')),
    tensorMap(t, t('anatomy.liveTokenRows'), r.tokens, labels, t('anatomy.liveTokenRowsNote')),
  ],
  position_table: (t, r, b, labels) => [
    h('p', {}, t('anatomy.livePositionTable')),
    tensorMap(t, t('anatomy.livePositionRows'), r.positions, labels, t('anatomy.liveRowPerPosition')),
  ],
  stream: (t, r, b, labels) => {
    const block = (n) => formatInteger(n, t.locale);
    return [
      h('p', {}, t('anatomy.liveStream')),
      positionTable(
        t,
        t('anatomy.liveStreamCaption'),
        r.symbols,
        [
          [t('anatomy.liveEntering', { block: block(0) }), r.blocks[0].stream_sizes.input.data],
          ...r.blocks.flatMap((blk) => [
            [t('anatomy.liveAfterAttention', { block: block(blk.block) }), blk.stream_sizes.after_attention_add.data],
            [t('anatomy.liveAfterFeedForward', { block: block(blk.block) }), blk.stream_sizes.after_feed_forward_add.data],
          ]),
        ],
        2,
      ),
      r.norm === 'post' ? h('p', { class: 'muted' }, t('anatomy.livePostLn')) : null,
      tensorMap(t, t('anatomy.liveStreamEntering', { block: block(0) }), r.embedded, labels),
    ];
  },
  attention_add: (t, r, b, labels) =>
    addView(t, r, r.blocks[b], labels, ['anatomy.liveAddAttention', 'anatomy.liveAddsAttention'], r.blocks[b].attention_output, 'input', 'after_attention_add'),
  feed_forward_add: (t, r, b, labels) =>
    addView(t, r, r.blocks[b], labels, ['anatomy.liveAddFeedForward', 'anatomy.liveAddsFeedForward'], r.blocks[b].feed_forward_output, 'after_attention', 'after_feed_forward_add'),
  attention_norm: (t, r, b, labels) => normView(t, r.blocks[b].ln_1, r.symbols, labels, t('anatomy.liveNormFirst', { block: formatInteger(b, t.locale) })),
  feed_forward_norm: (t, r, b, labels) => normView(t, r.blocks[b].ln_2, r.symbols, labels, t('anatomy.liveNormSecond', { block: formatInteger(b, t.locale) })),
  final_norm: (t, r, b, labels) => normView(t, r.ln_f, r.symbols, labels, 'ln_f'),
  feed_forward: (t, r, b, labels) => [
    h('p', {}, t('anatomy.liveHidden', { block: formatInteger(b, t.locale), width: formatInteger(r.blocks[b].hidden.shape[1], t.locale) })),
    tensorMap(t, t('anatomy.liveHiddenBefore'), r.blocks[b].hidden, labels),
    tensorMap(t, t('anatomy.liveHiddenAfter'), r.blocks[b].hidden_gelu, labels),
  ],
  activation: (t, r, b, labels) => {
    const blk = r.blocks[b];
    return [
      h('p', { class: 'statistic' }, t('anatomy.liveGelu', { share: formatPercent(blk.gelu_open_share, t.locale), block: formatInteger(b, t.locale) })),
      positionTable(t, t('anatomy.liveGeluCaption'), r.symbols, [[t('anatomy.liveShare'), blk.gelu_open.data]], 3),
      tensorMap(t, t('anatomy.liveHiddenAfter'), blk.hidden_gelu, labels),
    ];
  },
  output_head: (t, r, b, labels) => [
    h('p', {}, t('anatomy.liveOutputHead')),
    tensorMap(t, t('anatomy.liveLogits'), r.logits, labels),
    tensorMap(t, t('anatomy.liveProbabilities'), r.probabilities, labels, t('anatomy.liveProbabilitiesNote')),
  ],
};
VIEWS.logits = VIEWS.output_head;

function normView(t, norm, symbols, labels, name) {
  return [
    h('p', { class: 'statistic' }, t('anatomy.liveNorm', { name })),
    positionTable(
      t,
      t('anatomy.liveNormCaption', { name }),
      symbols,
      [
        [t('anatomy.liveMeanRead'), norm.input_mean.data],
        [t('anatomy.liveSpreadRead'), norm.input_spread.data],
        [t('anatomy.liveMeanAfter'), norm.normalized_mean.data],
        [t('anatomy.liveSpreadAfter'), norm.normalized_spread.data],
      ],
      3,
    ),
    tensorMap(t, t('anatomy.liveNormOutput', { name }), norm.output, labels),
  ];
}

/** An add's view: `keys` the catalog's [sentence, map name] for the sublayer whose output is added. */
function addView(t, r, blk, labels, [sentence, adds], delta, before, after) {
  return [
    h('p', { class: 'statistic' }, t(sentence, { block: formatInteger(blk.block, t.locale) })),
    positionTable(t, t('anatomy.liveStreamSize'), r.symbols, [[t('anatomy.liveBefore'), blk.stream_sizes[before].data], [t('anatomy.liveAfter'), blk.stream_sizes[after].data]], 2),
    tensorMap(t, t(adds), delta, labels),
  ];
}

export function anatomyLive({ uid, lib, t = translator('en') }) {
  let model = null;
  let key = null;
  const textId = `${uid}-live-text`;
  const blockId = `${uid}-live-block`;
  const input = h('input', { id: textId, type: 'text', value: DEFAULT_TEXT, spellcheck: false, autocomplete: 'off' });
  const block = h('select', { id: blockId });
  const blockLabel = h('label', { htmlFor: blockId });
  const blockControl = h('span', { class: 'block-choice' }, blockLabel, ' ', block);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const unknown = h('p', { class: 'muted unknown', role: 'status' });
  const title = h('h4', {});
  const body = h('div', { class: 'live-body' });
  let attention = attentionView(t); // the heads' maps: made again when the language changes
  let attentionBox = h('div', { class: 'attention-maps' }, ...attention.nodes);
  const heading = h('h3', {});
  const textLabel = h('label', { htmlFor: textId });
  const element = h('section', { class: 'live', role: 'group' }, heading, h('div', { class: 'controls' }, textLabel, input, blockControl), error, unknown, title, body);
  let drawn = ''; // what is on show: part, text and block (the diagram re-selects on every T step)

  /** The texts that do not depend on the tensors, in the language of `t`. */
  const word = () => {
    element.setAttribute('aria-label', t('anatomy.liveLabel'));
    heading.textContent = t('anatomy.liveTitle');
    textLabel.textContent = t('anatomy.liveText');
    blockLabel.textContent = t('anatomy.liveBlock');
    for (const option of block.options) option.textContent = t('anatomy.liveBlockOption', { block: formatInteger(Number(option.value), t.locale) });
  };
  word();

  const ensureModel = () => {
    if (model) return true;
    try {
      model = lib.CharModel.shipped();
      const info = model.info();
      block.replaceChildren(...Array.from({ length: info.layers }, (_, i) => h('option', { value: String(i) })));
      word();
      return true;
    } catch (err) {
      error.textContent = errorText(err, t);
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
      body.replaceChildren(h('p', { class: 'muted' }, t('anatomy.liveNoTensor')));
      return;
    }
    let r;
    try {
      r = maps ? model.attention(input.value) : model.inspect(input.value);
    } catch (err) {
      error.textContent = errorText(err, t);
      error.hidden = false;
      return; // the last good tensors stay
    }
    error.hidden = true;
    error.textContent = '';
    drawn = showing;
    unknown.textContent = unknownNote(r.unknown, t);
    const b = Number(block.value) || 0;
    const shown = { text: r.symbols.map(showChar).join(''), positions: formatInteger(r.ids.length, t.locale), count: r.ids.length };
    title.textContent = blockControl.hidden ? t('anatomy.liveFor', shown) : t('anatomy.liveForBlock', { ...shown, block: formatInteger(b, t.locale) });
    if (maps) {
      attention.update(r);
      return body.replaceChildren(h('p', {}, t('anatomy.liveHeads')), attentionBox);
    }
    body.replaceChildren(...view(t, r, b, r.symbols.map(showChar)));
  };

  input.addEventListener('input', draw);
  block.addEventListener('change', draw);
  return {
    element,
    show(k) {
      key = k;
      draw();
    },
    speak(next) {
      if (next === t) return;
      t = next;
      attention = attentionView(t);
      attentionBox = h('div', { class: 'attention-maps' }, ...attention.nodes);
      word();
      drawn = ''; // the tensors' texts again, in the new language
      draw();
    },
    release() {
      model?.free();
      model = null;
    },
  };
}
