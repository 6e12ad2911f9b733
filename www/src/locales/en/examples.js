export default {
  // <tb-example>: the form every worked example shares (elements/examples/form.js) and its messages
  'example.inputs': 'Inputs',
  'example.typeNumber': '{name}: type a number',
  'example.row': '{name}, row {row}',
  'example.needsName': 'tb-example needs a name: one of {allowed}; showing {fallback}',
  'example.unknown': 'unknown example "{name}": choose one of {allowed}; showing {fallback}',
  'example.listComma': ', ',
  'example.listCommaDecimals': ', ',
  'example.listAnd': '{rest} and {last}',

  // residual
  'example.residualTitle': 'The residual stream adds, it never overwrites',
  'example.residualIntro': 'Attention writes a vector into the stream, then the feed-forward writes another; each is added to what was there.',
  'example.residualX': 'Stream x entering the block',
  'example.residualAttention': 'What attention writes',
  'example.residualAttentionName': "attention's output",
  'example.residualFeedForward': 'What the feed-forward writes',
  'example.residualFeedForwardName': "the feed-forward's output",
  'example.residualPlusAttention': '+ attention {adds} =',
  'example.residualPlusFeedForward': '+ feed-forward {adds} =',
  'example.residualResult':
    'A real TinyGPT block with both sublayers switched off, run on a real stream, changes its input by at most {change}: with nothing to add, the stream passes through unchanged.',

  // layernorm
  'example.layernormTitle': 'LayerNorm, one step at a time',
  'example.layernormIntro':
    'Subtract the mean, divide by the spread: the vector comes out centred on 0 with a standard size, whatever scale it came in at.',
  'example.layernormName': 'the vector',
  'example.layernormLabel': 'Vector x',
  'example.layernormMean': 'mean μ =',
  'example.layernormVariance': 'variance σ² =',
  'example.layernormSpread': 'spread √(σ² + ε) =',
  'example.layernormCentred': 'centred x − μ =',
  'example.layernormOutput': 'output (x − μ) / spread =',
  'example.layernormResult': 'The same vector times {factor} normalises to {output}: the scale of the input is gone.',

  // gelu
  'example.geluTitle': 'GELU on single numbers',
  'example.geluIntro': 'GELU lets large positive numbers through almost unchanged, squashes negative ones towards 0, and bends smoothly in between.',
  'example.geluName': 'the inputs',
  'example.geluLabel': 'Numbers z',
  'example.geluCaption': 'GELU of each number',

  // feed-forward
  'example.feedForwardTitle': 'The feed-forward network and its weights',
  'example.feedForwardIntro': 'Each token is widened from d to 4d numbers, passed through GELU, and narrowed back to d.',
  'example.feedForwardName': 'width d',
  'example.feedForwardLabel': 'Model width d',
  'example.feedForwardHidden': 'hidden width 4d =',
  'example.feedForwardResult': 'Parameters, counted off the layer the library built: {params}.',

  // tiny-gpt
  'example.tinyGptTitle': 'TinyGPT from token ids to logits',
  'example.tinyGptIntro':
    'A whole GPT in miniature: each id picks a row of the token table, the rows pass through both blocks, and the last step scores every vocabulary entry at every position.',
  'example.tinyGptIdsName': 'token ids',
  'example.tinyGptIds': 'Token ids',
  'example.tinyGptSeedName': 'seed',
  'example.tinyGptSeed': 'Seed',
  'example.tinyGptStepIds': 'ids',
  'example.tinyGptStepStream': '→ stream',
  'example.tinyGptStepLogits': '→ logits',
  'example.tinyGptStepNext': 'highest-scoring next token at each position:',
  'example.tinyGptResult': 'The model holds {params} parameters.',

  // tied-output
  'example.tiedOutputTitle': 'The tied output head',
  'example.tiedOutputIntro':
    'The output head reuses the token table: the score of each vocabulary entry is the dot product of LN(h) with that entry\u2019s row.',
  'example.tiedOutputNormed': 'LN(h), the last position after the final norm',
  'example.tiedOutputTableName': 'the token table',
  'example.tiedOutputTable': 'Token table rows (rows separated by ;)',
  'example.tiedOutputToken': 'token {index}: {row} · {normed} =',
  'example.tiedOutputResult': 'Logits: {logits}.',

  // masks (the rest is tb-masks' own view: locales/*/masks.js)
  'example.masksTitle': 'Encoder and decoder masks',
  'example.masksIntro':
    'An encoder block lets every token look at every token; a decoder block lets each look only at itself and earlier tokens. Change a token and see which outputs move.',

  // param-count
  'example.paramCountTitle': 'Counting the parameters',
  'example.paramCountIntro': 'Add up one block, multiply by the number of blocks, and add the tables and the final norm.',
  'example.paramCountBlock': 'one TinyGPT block',
  'example.paramCountTokenTable': 'token table',
  'example.paramCountPositionTable': 'position table',
  'example.paramCountFinalNorm': 'final norm',
  'example.paramCountTiny': 'TinyGPT in all',
  'example.paramCountAnalytic': 'the analytic model\u2019s count of the same configuration',
  'example.paramCountAgree': '(they agree)',
  'example.paramCountDiffer': '(they differ)',
  'example.paramCountWithoutBiases': 'GPT-2 small without attention biases',
  'example.paramCountWithBiases': 'GPT-2 small, with them',
  'example.paramCountResult': 'GPT-2 small\u2019s published count is {params}: the biases on its attention projections make the difference.',

  // moe
  'example.moeTitle': 'Mixture of experts: routing and size',
  'example.moeIntro': 'A router scores the token against every expert; only the top k run, weighted by a softmax over their scores.',
  'example.moeRouting': 'One token\u2019s routing',
  'example.moeScoresName': 'the router scores',
  'example.moeScores': 'Router scores, one per expert',
  'example.moeK': 'Experts kept, k',
  'example.moeKept': { one: 'kept (top {k}): expert', other: 'kept (top {k}): experts' },
  'example.moeGates': 'gates (softmax over the kept scores)',
  'example.moeSkipped': { one: 'skipped (never run): expert', other: 'skipped (never run): experts' },
  'example.moeSkippedNone': 'skipped (never run): experts',
  'example.moeNone': 'none',
  'example.moeSize': 'The size of a layer',
  'example.moeWidthName': 'width d',
  'example.moeWidth': 'Width d',
  'example.moeExpertsName': 'experts',
  'example.moeExperts': 'Experts',
  'example.moeOneExpert': 'one expert (a feed-forward network)',
  'example.moeRouter': 'router',
  'example.moeAllHeld': 'all held in memory',
  'example.moeTouched': 'touched per token',
  'example.moeResult': 'Every expert must be held; only k of them work on any one token.',

  // balance-loss
  'example.balanceTitle': 'The load-balancing loss',
  'example.balanceIntro':
    'f is the share of tokens each expert received, P the router\u2019s average probability for it; the loss is lowest when both are even.',
  'example.balanceEven': 'An even split',
  'example.balanceAllToOne': 'Everything to expert {expert}',
  'example.balanceFractionsName': 'the fractions',
  'example.balanceFractions': 'Fractions f',
  'example.balanceProbabilitiesName': 'the probabilities',
  'example.balanceProbabilities': 'Probabilities P',
  'example.balanceResult': 'Loss: {loss}',

  // flops
  'example.flopsTitle': 'Counting FLOPs',
  'example.flopsIntro': 'Each parameter costs a multiply and an add per token going forward, and about twice that again going backward.',
  'example.flopsInfer': 'Generating one token',
  'example.flopsRun': 'Training run {run}',
  'example.flopsParamsName': 'parameters',
  'example.flopsParams': 'Parameters N',
  'example.flopsTokensName': 'tokens',
  'example.flopsTokens': 'Training tokens D',
  'example.flopsInferResult': 'C_infer({n}) = {flops} FLOPs',
  'example.flopsTrainResult': 'C_train({n}, {d}) = {flops} FLOPs',
};
