export default {
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
