export default {
  'costChart.title': '{model} 中一个 token 的计算成本',
  'costChart.seqLen': '序列长度 T',
  'costChart.seqLenField': '序列长度 T（token 数）',
  'costChart.within': '在 T = {crossover} 时，注意力的计算量超过一个块中的线性层，仍在 {model} 可接受的 {context} 个 token 之内。',
  'costChart.past': '注意力要到 T = {crossover} 才会超过线性层，已超出 {model} 可接受的 {context} 个 token。',
  'costChart.chartLabel':
    '{model} 的图表。每个 token 的前向 FLOPs：T = {firstT} 时为 {firstTotal}，T = {lastT} 时为 {lastTotal}；参数项保持在 {parameter}，而注意力项从 {firstAttention} 增长到 {lastAttention}。注意力在一个块的运算中所占比例从 {firstShare} 增长到 {lastShare}。{note}',
  'costChart.legendTotal': '总计',
  'costChart.legendParameter': '参数项 2N（恒定）',
  'costChart.legendAttention': '注意力项 4·L·T·d',
  'costChart.flopsTitle': '每个 token 的前向 FLOPs',
  'costChart.shareTitle': '注意力在一个块的运算中所占比例',
  'costChart.crossoverWithin': '交叉点 T = {crossover}',
  'costChart.crossoverPast': '交叉点在 T = {crossover}',
  'costChart.axisT': 'T（token 数，对数刻度）',
  'costChart.readout': 'T = {seqLen} 时：每个 token 前向 {total}（参数 {parameters}，注意力 {attention}）；注意力占一个块运算量的 {share}。',
  'costChart.flops': '{flops}FLOPs',
};
