import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  CHIP_MAX,
  STREAM_X,
  WIDTH,
  arrowHead,
  diagramItems,
  keyboardOrder,
  layoutAnatomy,
  layoutMatrices,
  nextIndex,
  partMatrices,
} from '../../www/src/charts/anatomy-layout.js';
import { boxText, textWidth, wrapLines } from '../../www/src/charts/anatomy-boxes.js';

// Reports trimmed to what the layout reads, shaped as the wasm's `count` returns them (the layout
// takes parts, components and config from the library and never counts anything itself).
function part(key, label, group, perBlock, params = 1) {
  return { part: key, label, group, per_block: perBlock, params, params_each: params, active: params, share: 0.1 };
}
function matrix(name, key, group, shape, symbols, tied = false) {
  return { name, part: key, group, shape, shape_symbols: symbols, tied };
}
function vector(name, key, group, n) {
  return { name, part: key, group, shape: [n], shape_symbols: ['d'], tied: false };
}

const GPT2_PARTS = [
  part('token_table', 'Token table', 'embeddings', false),
  part('position_table', 'Position table', 'embeddings', false),
  part('attention_norm', 'Norm before attention', 'norms', true),
  part('attention', 'Attention', 'attention', true),
  part('feed_forward_norm', 'Norm before the feed-forward', 'norms', true),
  part('feed_forward', 'Feed-forward', 'feed_forward', true),
  part('final_norm', 'Final norm', 'norms', false),
  part('output_head', 'Output head', 'output_head', false, 0),
];

const gpt2 = {
  config: { label: 'GPT-2 small', n_layers: 12, n_heads: 12, n_kv_heads: 12, positions: 'learned', feed_forward: 'gelu', tied_output: true, moe: null },
  parts: GPT2_PARTS,
  components: [
    matrix('token table', 'token_table', 'embeddings', [50257, 768], ['V', 'd']),
    matrix('position table', 'position_table', 'embeddings', [1024, 768], ['P', 'd']),
    vector('attention norm gain γ', 'attention_norm', 'norms', 768),
    matrix('W_Q', 'attention', 'attention', [768, 768], ['d', 'd']),
    vector('b_Q', 'attention', 'attention', 768),
    matrix('W_K', 'attention', 'attention', [768, 768], ['d', 'd']),
    matrix('W_V', 'attention', 'attention', [768, 768], ['d', 'd']),
    matrix('W_O', 'attention', 'attention', [768, 768], ['d', 'd']),
    matrix('W_1', 'feed_forward', 'feed_forward', [768, 3072], ['d', '4d']),
    matrix('W_2', 'feed_forward', 'feed_forward', [3072, 768], ['4d', 'd']),
    matrix('W_out', 'output_head', 'output_head', [768, 50257], ['d', 'V'], true),
  ],
};

const llama = {
  config: { label: 'Llama 3 8B', n_layers: 32, n_heads: 32, n_kv_heads: 8, positions: 'rotary', feed_forward: 'swi_glu', tied_output: false, moe: null },
  parts: GPT2_PARTS.filter((p) => p.part !== 'position_table'),
  components: [
    matrix('W_Q', 'attention', 'attention', [4096, 4096], ['d', 'd']),
    matrix('W_K', 'attention', 'attention', [4096, 1024], ['d', 'd_kv']),
    matrix('W_V', 'attention', 'attention', [4096, 1024], ['d', 'd_kv']),
    matrix('W_O', 'attention', 'attention', [4096, 4096], ['d', 'd']),
  ],
};

const mixtral = {
  config: { ...llama.config, label: 'Mixtral 8x7B', moe: { n_experts: 8, experts_per_token: 2 } },
  parts: [
    ...llama.parts.slice(0, 4),
    part('router', 'Router', 'router', true),
    ...llama.parts.slice(4),
  ],
  components: [
    matrix('W_router', 'router', 'router', [4096, 8], ['d', 'E']),
    matrix('W_gate (each expert)', 'feed_forward', 'feed_forward', [4096, 14336], ['d', 'f']),
  ],
};

const GPT2_ORDER = [
  'token_table',
  'position_table',
  'stream',
  'attention_norm',
  'attention',
  'scores',
  'attention_add',
  'feed_forward_norm',
  'feed_forward',
  'activation',
  'feed_forward_add',
  'final_norm',
  'output_head',
  'logits',
];

test('keyboard order: top to bottom, parameter-free parts where they act', () => {
  assert.deepEqual(keyboardOrder(diagramItems(gpt2)), GPT2_ORDER);
});

test('the parts drawn come from the report: rotary models have no position table, but a note', () => {
  const items = diagramItems(llama);
  const order = keyboardOrder(items);
  assert.ok(!order.includes('position_table'));
  assert.deepEqual(order, GPT2_ORDER.filter((k) => k !== 'position_table'));
  const note = items.find((it) => it.key === 'rotary_note');
  assert.equal(note.selectable, false);
  assert.match(note.label, /rotary/i);
  assert.match(note.label, /no parameters/);
  assert.ok(!diagramItems(gpt2).some((it) => it.key === 'rotary_note'));
});

test('a mixture-of-experts model has a router before its feed-forward', () => {
  const order = keyboardOrder(diagramItems(mixtral));
  assert.deepEqual(order.slice(order.indexOf('feed_forward_norm'), order.indexOf('feed_forward') + 1), [
    'feed_forward_norm',
    'router',
    'feed_forward',
  ]);
});

test('labels: the report’s for parts with weights, ours for the rest; "L-1 more blocks"', () => {
  const items = diagramItems(gpt2);
  const label = (key) => items.find((it) => it.key === key).label;
  assert.equal(label('attention'), 'Attention');
  assert.equal(label('feed_forward_norm'), 'Norm before the feed-forward');
  assert.equal(label('scores'), 'Scores');
  assert.equal(label('activation'), 'GELU activation');
  assert.equal(label('stream'), 'Residual stream');
  assert.equal(label('more_blocks'), '11 more blocks like this');
  assert.equal(diagramItems(llama).find((it) => it.key === 'activation').label, 'SwiGLU activation');
  const one = { ...gpt2, config: { ...gpt2.config, n_layers: 1 } };
  assert.ok(!diagramItems(one).some((it) => it.key === 'more_blocks'));
  assert.equal(diagramItems({ ...gpt2, config: { ...gpt2.config, n_layers: 2 } }).find((it) => it.key === 'more_blocks').label, '1 more block like this');
});

test('matrices: two-dimensional tensors only, tables named by their shape', () => {
  assert.deepEqual(partMatrices(gpt2, 'attention').map((m) => m.name), ['W_Q', 'W_K', 'W_V', 'W_O']);
  assert.deepEqual(partMatrices(gpt2, 'token_table'), [{ name: 'V×d', rows: 50257, cols: 768, tied: false }]);
  assert.deepEqual(partMatrices(gpt2, 'attention_norm'), []);
  assert.equal(partMatrices(mixtral, 'feed_forward')[0].name, 'W_gate');
  assert.equal(partMatrices(gpt2, 'output_head')[0].tied, true);
});

test('matrices are drawn to scale: W_K a quarter as wide as W_Q in Llama 3 8B', () => {
  const box = { x: 50, y: 100, w: 200, h: 68 };
  const chips = layoutMatrices(partMatrices(llama, 'attention'), box);
  const [q, k, v, o] = chips;
  assert.equal(q.w, CHIP_MAX);
  assert.equal(q.h, CHIP_MAX);
  assert.equal(k.w, CHIP_MAX / 4);
  assert.equal(k.h, CHIP_MAX);
  assert.equal(v.w, k.w);
  assert.equal(o.w, q.w);
  // left to right, inside the box, not overlapping
  assert.equal(q.x, box.x + 10);
  for (let i = 1; i < chips.length; i++) assert.ok(chips[i].x >= chips[i - 1].x + chips[i - 1].w);
  for (const c of chips) {
    assert.ok(c.y >= box.y && c.y + c.h <= box.y + box.h);
    assert.ok(c.labelY <= box.y + box.h);
  }
  // a very thin matrix still shows
  const [router] = layoutMatrices(partMatrices(mixtral, 'router'), box);
  assert.equal(router.h, CHIP_MAX);
  assert.equal(router.w, 3);
  assert.deepEqual(layoutMatrices([], box), []);
});

function inside(inner, outer) {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

for (const [name, report] of [['GPT-2', gpt2], ['Llama', llama], ['Mixtral', mixtral]]) {
  test(`coordinates (${name}): reading order runs down the page, everything within the width`, () => {
    const items = diagramItems(report);
    const layout = layoutAnatomy(items);
    assert.equal(layout.width, WIDTH);
    const all = { x: 0, y: 0, w: layout.width, h: layout.height };
    for (const [key, box] of Object.entries(layout.boxes)) assert.ok(inside(box, all), `${key} inside the drawing`);

    // The boxes, adds and notes in order: each starts below where the one before started.
    let lastY = -Infinity;
    for (const it of items) {
      if (it.kind === 'child' || it.kind === 'line') continue;
      const y = it.kind === 'add' ? layout.adds[it.key].cy : (layout.boxes[it.key] ?? layout.notes.find((n) => n.key === it.key)).y;
      if (it.section === 'embed') continue; // side by side
      assert.ok(y > lastY, `${it.key} below the previous part`);
      lastY = y;
    }

    // The opened block holds its parts; the scores sit inside attention, the activation inside the feed-forward.
    for (const it of items.filter((i) => i.section === 'block' && i.kind === 'box')) {
      assert.ok(inside(layout.boxes[it.key], layout.block), `${it.key} inside the block`);
    }
    assert.ok(inside(layout.boxes.scores, layout.boxes.attention));
    assert.ok(inside(layout.boxes.activation, layout.boxes.feed_forward));

    // The adds sit on the residual stream, which runs from under the embeddings to the final norm.
    for (const add of Object.values(layout.adds)) {
      assert.equal(add.cx, STREAM_X);
      assert.ok(add.cy > layout.stream.y1 && add.cy < layout.stream.y2);
    }
    assert.equal(layout.stream.x, STREAM_X);
    const embedBottom = Math.max(...items.filter((i) => i.section === 'embed' && layout.boxes[i.key]).map((i) => layout.boxes[i.key].y + layout.boxes[i.key].h));
    assert.ok(layout.stream.y1 > embedBottom);
    assert.equal(layout.stream.y2, layout.boxes.final_norm.y);
    assert.ok(layout.boxes.logits.y + layout.boxes.logits.h < layout.height);
  });
}

test('coordinates of GPT-2 small’s parts (pinned)', () => {
  const layout = layoutAnatomy(diagramItems(gpt2));
  assert.deepEqual(layout.boxes.token_table, { x: 6, y: 6, w: 121, h: 68 });
  assert.deepEqual(layout.boxes.position_table, { x: 137, y: 6, w: 121, h: 68 });
  assert.deepEqual(layout.boxes.attention_norm, { x: 50, y: 124, w: 200, h: 30 });
  // Four matrices leave no room beside them for the scores' box: it goes under them.
  assert.deepEqual(layout.boxes.attention, { x: 50, y: 164, w: 200, h: 109 });
  assert.deepEqual(layout.boxes.scores, { x: 131, y: 233, w: 112, h: 33 });
  // Two leave room: the activation's box sits beside them.
  assert.equal(layout.boxes.feed_forward.h, 68);
  assert.deepEqual(layout.adds.attention_add, { cx: 26, cy: 296, r: 9 });
  assert.deepEqual(layout.stream, { x: 26, y1: 86, y2: 517 });
  assert.equal(layout.height, 671);
  assert.equal(layout.notes[0].key, 'more_blocks');
  // the first link of the block goes from the stream into the norm
  assert.deepEqual(layout.links.find((l) => l.arrow).points, [[26, 139], [50, 139]]);
});

test('a box\u2019s note sits beside its label, on a row of its own, or in its short form, as the width allows', () => {
  const notes = (it) => (it.part?.per_block ? ['1.54K per block', '1.54K'] : it.part ? ['38.6M'] : it.key === 'logits' ? ['8 × 50,257, no parameters'] : []);
  const layout = layoutAnatomy(diagramItems(gpt2), { notes });
  const { texts, boxes } = layout;
  // Beside a short label; the short form beside a longer one; a row of its own under a longer still.
  assert.deepEqual(texts.attention_norm, { lines: ['Norm before attention'], note: { text: '1.54K', row: 0 }, rows: 1, chipTop: 24 });
  assert.deepEqual(texts.attention.note, { text: '1.54K per block', row: 0 });
  assert.deepEqual(texts.feed_forward_norm.note, { text: '1.54K per block', row: 1 });
  assert.equal(boxes.feed_forward_norm.h, boxes.attention_norm.h + 14, 'a second row makes the box a row taller');
  // A table too narrow for its note beside its name: the note on the next row, the matrix below it.
  assert.deepEqual(texts.token_table.note, { text: '38.6M', row: 1 });
  assert.equal(texts.token_table.chipTop, 38);
  assert.equal(boxes.token_table.h, boxes.position_table.h, 'the embeddings as tall as each other');
  assert.deepEqual(texts.logits.note, { text: '8 × 50,257, no parameters', row: 0 });
  // Every box's rows inside it: the last baseline above its bottom.
  for (const [key, text] of Object.entries(texts)) assert.ok(18 + (text.rows - 1) * 14 + 4 <= boxes[key].h, key);
});

test('a label too long for its box is cut into lines at its spaces', () => {
  assert.deepEqual(wrapLines('Normalisation avant le feed-forward', 180), ['Normalisation avant le', 'feed-forward']);
  assert.deepEqual(wrapLines('Attention', 180), ['Attention']);
  assert.deepEqual(wrapLines('注意力之前的归一化', 50), ['注意力之前的归一化'], 'no spaces: one line');
  const text = boxText('Normalisation avant le feed-forward', ['1,54 k par bloc', '1,54 k'], 200);
  assert.deepEqual(text, { lines: ['Normalisation avant le', 'feed-forward'], note: { text: '1,54 k par bloc', row: 2 }, rows: 3 });
  assert.deepEqual(boxText('Logits', ['a note far too long to fit in a box this narrow'], 100), { lines: ['Logits'], note: null, rows: 1 });
  // In Chinese a character is a full em.
  assert.equal(textWidth('注意力', 11), 33);
});

test('arrow keys move through the parts and stop at the ends', () => {
  const n = GPT2_ORDER.length;
  assert.equal(nextIndex(n, 4, 'ArrowDown'), 5);
  assert.equal(nextIndex(n, 4, 'ArrowRight'), 5);
  assert.equal(nextIndex(n, 4, 'ArrowUp'), 3);
  assert.equal(nextIndex(n, 4, 'ArrowLeft'), 3);
  assert.equal(nextIndex(n, n - 1, 'ArrowDown'), n - 1);
  assert.equal(nextIndex(n, 0, 'ArrowUp'), 0);
  assert.equal(nextIndex(n, 6, 'Home'), 0);
  assert.equal(nextIndex(n, 6, 'End'), n - 1);
  assert.equal(nextIndex(n, 6, 'Enter'), null);
  assert.equal(nextIndex(n, 6, 'a'), null);
  assert.equal(nextIndex(0, 0, 'ArrowDown'), null);
  // from attention, one step up is its norm, one down the scores
  const order = keyboardOrder(diagramItems(gpt2));
  const at = order.indexOf('attention');
  assert.equal(order[nextIndex(n, at, 'ArrowUp')], 'attention_norm');
  assert.equal(order[nextIndex(n, at, 'ArrowDown')], 'scores');
});

test('an arrowhead points along its segment', () => {
  const [tip, a, b] = arrowHead([0, 0], [10, 0], 6);
  assert.deepEqual(tip, [10, 0]);
  assert.deepEqual(a, [4, 3]);
  assert.deepEqual(b, [4, -3]);
  const [tip2, c, d] = arrowHead([5, 0], [5, 20], 4);
  assert.deepEqual(tip2, [5, 20]);
  assert.equal(c[1], 16);
  assert.equal(d[1], 16);
  assert.equal(Math.abs(c[0] - d[0]), 4);
});
