export default {
  // <tb-memory>
  'memory.title': 'Memory for {model}',
  'memory.batch': 'Batch B (sequences)',
  'memory.seqLen': 'Context T (tokens)',
  'memory.fullContext': 'Use the full context ({context})',
  'memory.kvNote':
    'The cache keeps one key and one value per token in each of the {layers} blocks, for the {kvHeads} key/value heads (n_kv_heads), not the {heads} query heads: {why}',
  'memory.kvShared': '{model} shares each key/value head among several query heads (grouped-query attention), which shrinks the cache.',
  'memory.kvOwn': 'in {model} every query head has its own key/value head, so the two numbers agree.',
  'memory.weightsFixed': 'Weights are fixed once loaded; the cache grows with every token of every sequence in the batch.',
  'memory.batchName': 'batch',
  'memory.notNumber': '{name} is not a number: type a whole number',
  'memory.caption': 'Memory of {model}: weights and key/value cache',
  'memory.format': 'Number format',
  'memory.weights': 'Weights',
  'memory.kvPerToken': 'KV cache per token',
  'memory.kvFor': 'KV cache for B = {batch}, T = {seqLen}',
  'memory.dtype': '{dtype} ({bits} bits)',
  'memory.exactBytes': '{bytes} bytes',
};
