// The pure half of <tb-number>: dotted paths into a report, the sources, and the formats.
// A slice of GPT-2 small's real report (`tblock count gpt2-small --seq-len 1024`) stands in for the wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatValue, lookup, parseArgs, runSource, sourceKey } from '../../www/src/lesson-values.js';

const REPORT = {
  model: 'gpt2-small',
  config: { label: 'GPT-2 small', d_model: 768, n_layers: 12 },
  total_params: 124439808,
  per_block_params: 7087872,
  components: [
    { name: 'W_Q', part: 'attention', group: 'attention', shape: [768, 768], params_each: 589824 },
    { name: 'W_K', part: 'attention', group: 'attention', shape: [768, 768], params_each: 589824 },
  ],
  parts: [
    { part: 'attention_norm', group: 'norms', params_each: 1536 },
    { part: 'attention', group: 'attention', params_each: 2362368, share: 0.2278082589134178 },
  ],
  groups: [
    { group: 'embeddings', share: 0.3164888200406095 },
    { group: 'attention', params: 28348416, share: 0.2278082589134178 },
  ],
  activations: [{ key: 'scores', name: 'scores', part: 'scores', shape: [1, 12, 1024, 1024] }],
  kaplan: { params: 84934656 },
  forward_flops_per_token: 285055488,
  attention_share: { crossover_seq_len: 4608, share: 0.18181818181818182 },
  memory: {
    kv_cache_per_token: [
      { dtype: 'fp32', bits: 32, bytes: 73728 },
      { dtype: 'bf16/fp16', bits: 16, bytes: 36864 },
    ],
  },
};

test('lookup follows fields and picks list items by group, part, name, key or index', () => {
  assert.deepEqual(lookup(REPORT, 'total_params'), { value: 124439808 });
  assert.deepEqual(lookup(REPORT, ' per_block_params '), { value: 7087872 });
  assert.deepEqual(lookup(REPORT, 'groups.attention.share'), { value: 0.2278082589134178 });
  assert.deepEqual(lookup(REPORT, 'parts.attention.params_each'), { value: 2362368 });
  assert.deepEqual(lookup(REPORT, 'components.W_K.shape'), { value: [768, 768] });
  assert.deepEqual(lookup(REPORT, 'components.W_K.shape.1'), { value: 768 });
  assert.deepEqual(lookup(REPORT, 'activations.scores.shape.3'), { value: 1024 });
  assert.deepEqual(lookup(REPORT, 'kaplan.params'), { value: 84934656 });
  assert.deepEqual(lookup(REPORT, 'attention_share.crossover_seq_len'), { value: 4608 });
  assert.deepEqual(lookup(REPORT, 'memory.kv_cache_per_token.bf16/fp16.bytes'), { value: 36864 });
  assert.deepEqual(lookup(REPORT, 'groups.0.group'), { value: 'embeddings' });
  assert.deepEqual(lookup(REPORT, 'config.label'), { value: 'GPT-2 small' });
});

test('lookup of a blank path gives the whole result (example_balance returns one number)', () => {
  assert.deepEqual(lookup(4, ''), { value: 4 });
  assert.deepEqual(lookup(REPORT, undefined), { value: REPORT });
});

test('lookup names the unknown segment and what was there instead', () => {
  const { error, value } = lookup(REPORT, 'groups.feed_forward.share');
  assert.equal(value, undefined);
  assert.match(error, /^unknown value path: groups\.feed_forward\.share/);
  assert.match(error, /at "feed_forward" after groups; try one of: embeddings, attention/);
  assert.match(lookup(REPORT, 'total_parms').error, /try one of: model, config, total_params/);
  assert.match(lookup(REPORT, 'total_params.x').error, /single value already/);
  assert.match(lookup(REPORT, 'groups.9').error, /unknown value path/);
  // Own fields only: nothing from the prototype.
  assert.match(lookup(REPORT, 'constructor').error, /unknown value path/);
  assert.match(lookup(REPORT, 'groups.length').error, /unknown value path/);
});

test('sourceKey accepts count, the examples with or without "example:", and underscores', () => {
  assert.deepEqual(sourceKey(null), { value: 'count' });
  assert.deepEqual(sourceKey('count'), { value: 'count' });
  assert.deepEqual(sourceKey('example:param_count'), { value: 'example:param-count' });
  assert.deepEqual(sourceKey('layernorm'), { value: 'example:layernorm' });
  assert.deepEqual(sourceKey('training_run'), { value: 'training-run' });
  assert.match(sourceKey('example:nope').error, /^unknown source: example:nope \(choose one of count, /);
});

test('parseArgs reads a JSON list and refuses anything else', () => {
  assert.deepEqual(parseArgs(null), { value: undefined });
  assert.deepEqual(parseArgs(' '), { value: undefined });
  assert.deepEqual(parseArgs('[70e9, 1e12]'), { value: [70e9, 1e12] });
  assert.match(parseArgs('70e9, 1e12').error, /not a JSON list/);
  assert.match(parseArgs('{"a": 1}').error, /must be a JSON list/);
});

test('runSource calls the facade with the lesson defaults, or with the author\'s args', () => {
  const calls = [];
  const lib = {
    example_defaults: () => ({
      layernorm: [1, 2, 3, 4],
      flops: { infer_params: 7e9 },
      training_run: { params: 123653376, tokens_per_iteration: 491520, iterations: 600000, tokens: 294912000000, peak: 312e12, utilisation: 1 },
    }),
    count: (...a) => (calls.push(['count', ...a]), REPORT),
    example_layernorm: (...a) => (calls.push(['layernorm', ...a]), { mean: 2.5 }),
    example_flops: (...a) => (calls.push(['flops', ...a]), { c_infer: 1 }),
    training_run: (...a) => (calls.push(['training_run', ...a]), { hours: 1 }),
  };
  assert.equal(runSource(lib, 'count', { model: 'llama3-8b', seqLen: 1024, batch: 1 }), REPORT);
  runSource(lib, 'count');
  runSource(lib, 'example:layernorm');
  runSource(lib, 'example:flops', { args: [70e9, 1e12] });
  runSource(lib, 'training-run');
  assert.deepEqual(calls, [
    ['count', 'llama3-8b', 1024, 1],
    ['count', 'gpt2-small', 8, 1],
    ['layernorm', [1, 2, 3, 4]],
    ['flops', 70e9, 1e12],
    ['training_run', 123653376, 294912000000, 312e12, 1],
  ]);
});

test('formatValue shows each format as the lessons write it', () => {
  assert.deepEqual(formatValue(124439808, 'integer'), { text: '124,439,808' });
  assert.deepEqual(formatValue(124439808, ''), { text: '124,439,808' });
  assert.deepEqual(formatValue(124439808, 'compact'), { text: '124M' });
  assert.deepEqual(formatValue(0.2278082589134178, 'percent'), { text: '23%' });
  assert.deepEqual(formatValue(285055488, 'si'), { text: '285 M' });
  assert.deepEqual(formatValue(247601664, 'si-G'), { text: '0.248 G' });
  assert.deepEqual(formatValue(2.188011865e20, 'scientific', 2), { text: '2.2 × 10²⁰' });
  assert.deepEqual(formatValue(36864, 'bytes'), { text: '36 KiB' });
  assert.deepEqual(formatValue(0.7310585975646973, 'decimal'), { text: '0.731' });
  assert.deepEqual(formatValue(-1.3416354656219482, undefined), { text: '-1.342' });
  assert.deepEqual(formatValue(194.80162619076924, 'decimal', 0), { text: '195' });
  assert.deepEqual(formatValue([-1.3416, -0.4472, 0.4472, 1.3416], 'vector'), { text: '(-1.342, -0.447, 0.447, 1.342)' });
  assert.deepEqual(formatValue([4096, 1024], 'shape'), { text: '4,096 × 1,024' });
  assert.deepEqual(formatValue('GPT-2 small', ''), { text: 'GPT-2 small' });
});

test('formatValue refuses what it cannot show, with a message instead of an exception', () => {
  assert.match(formatValue(1, 'roman').error, /^unknown format: roman \(choose one of integer, compact/);
  assert.match(formatValue({ a: 1 }, 'integer').error, /not a number: an object \(a\)/);
  assert.match(formatValue([1, 2], 'integer').error, /not a number: a list of 2/);
  assert.match(formatValue(1.5, 'integer').error, /cannot show 1\.5 as integer/);
  assert.match(formatValue(12, 'shape').error, /not a list of numbers/);
});
