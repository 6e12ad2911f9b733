export default {
  // <tb-cost-chart> (and charts/cost-chart-svg.js)
  'costChart.title': 'What a token costs in {model}',
  'costChart.seqLen': 'Sequence length T',
  'costChart.seqLenField': 'Sequence length T (tokens)',
  'costChart.within': 'Attention passes the linear layers of a block at T = {crossover}, within the {context} tokens {model} accepts.',
  'costChart.past': 'Attention would pass the linear layers at T = {crossover}, past the {context} tokens {model} accepts.',
  'costChart.chartLabel':
    "Chart for {model}. Forward FLOPs per token: {firstTotal} at T = {firstT}, {lastTotal} at T = {lastT}; the parameter term stays at {parameter} while the attention term grows from {firstAttention} to {lastAttention}. One block's attention share grows from {firstShare} to {lastShare}. {note}",
  'costChart.legendTotal': 'total',
  'costChart.legendParameter': 'parameter term 2N (flat)',
  'costChart.legendAttention': 'attention term 4·L·T·d',
  'costChart.flopsTitle': 'Forward FLOPs per token',
  'costChart.shareTitle': "Attention's share of one block's arithmetic",
  'costChart.crossoverWithin': 'crossover T = {crossover}',
  'costChart.crossoverPast': 'crossover at T = {crossover}',
  'costChart.axisT': 'T (tokens, log scale)',
  'costChart.readout': "At T = {seqLen}: {total} per token forward (parameters {parameters}, attention {attention}); attention is {share} of one block's arithmetic.",
  'costChart.flops': '{flops}FLOPs',
};
