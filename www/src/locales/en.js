// English: every text the widgets show, by key. The other catalogs (fr.js, zh-CN.js) hold the same
// keys (a unit test checks); an entry that is an object is a plural, chosen by Intl.PluralRules on
// the value `count` ({ one, other }, and the other categories a language has). {name} is a value.
// Keys: widget.what (base: every widget; parse: numbers a reader types).

export default {
  // base.js: every widget
  'base.libraryFailed': 'This widget could not load its model library: {error}',
  'base.libraryFailedPrerendered':
    'This widget shows the figures it was built with; it could not load its model library, so it cannot change them: {error}',
  'base.legend': 'Legend',
  'attr.notWhole': '{name} "{text}" is not a whole number; {using}',
  'attr.tooLarge': '{name} "{text}" is far too large; {using}',
  'attr.usingDefault': 'using the default',
  'attr.using': 'using {value}',
  'attr.notNumber': '{name}: "{text}" is not a number; write numbers separated by commas',

  // Numbers a reader types (format-cost.js)
  'parse.empty': '{name} is empty: type a number',
  'parse.notNumber': '{name} "{text}" is not a number: type digits, like 491,520 or 1.2e20',

  // Lists of positions (charts/mask-grid.js)
  'positions.none': 'none',
  'positions.separator': ', ',
  'positions.query': { one: 'query {query}: key {keys}', other: 'query {query}: keys {keys}' },

  // <tb-masks>
  'masks.title': 'Encoder and decoder attention',
  'masks.tokens': 'Number of tokens',
  'masks.slider': 'Number of tokens (slider)',
  'masks.position': 'Change token at position',
  'masks.option': '{position} (id {id})',
  'masks.typeWhole': 'Number of tokens: type a whole number',
  'masks.encoderBlock': 'Encoder block',
  'masks.decoderBlock': 'Decoder block',
  'masks.flagOff': '(causal flag off)',
  'masks.flagOn': '(causal flag on)',
  'masks.encoder': 'Encoder',
  'masks.decoder': 'Decoder',
  'masks.pairs': '{name}: {pairs} of {total} pairs allowed',
  'masks.changed': 'Outputs changed: {positions}',
  'masks.unchanged': 'Unchanged: {positions}',
  'masks.figure': '{caption}. {rows}. Outputs changed: {positions}.',
  'masks.sentence':
    'Token {position} changes from id {old} to id {new}. Rows are queries, columns keys; the dot after each row shows whether that output moved.',
  'masks.legendAllowed': 'allowed pair',
  'masks.legendChanged': 'output that changed (and the changed token\u2019s column)',

  // <tb-training-cost>
  'cost.title': 'What a training run costs: 6·N·D',
  'cost.preset':
    "Preset to nanoGPT's run of GPT-2 small (config/train_gpt2.py). Each token costs about 6N FLOPs to train: 2N forward and twice that backward.",
  'cost.realRuns': 'Real runs reach only part of the peak: lower the utilisation to see the time stretch.',
  'cost.params': 'N, parameters',
  'cost.paramsHint': 'the ones that take part in a matrix product',
  'cost.tokensPerIteration': 'Tokens per iteration',
  'cost.tokensPerIterationHint': 'batch × sequence length × gradient steps',
  'cost.iterations': 'Iterations',
  'cost.iterationsHint': 'D = tokens per iteration × iterations',
  'cost.peak': 'Peak, TFLOP/s',
  'cost.peakHint': 'an A100 in bf16: 312',
  'cost.utilisation': 'Utilisation (fraction of peak)',
  'cost.utilisationHint': 'above 0, at most 1',
  'cost.using': '{problem}; using {value}',
  'cost.usingNanogpt': "{problem}; using nanoGPT's run instead",
  'cost.tokens': 'D = {tokens} tokens',
  'cost.flops': '6·N·D = {flops} FLOPs',
  'cost.time': 'About {time} of one accelerator at {peak} TFLOP/s and utilisation {utilisation}.',
};
