export default {
  'costChart.title': 'Ce que coûte un token dans {model}',
  'costChart.seqLen': 'Longueur de séquence T',
  'costChart.seqLenField': 'Longueur de séquence T (tokens)',
  'costChart.within': 'L\u2019attention dépasse les couches linéaires d\u2019un bloc à T = {crossover}, en deçà des {context} tokens qu\u2019accepte {model}.',
  'costChart.past': 'L\u2019attention dépasserait les couches linéaires à T = {crossover}, au-delà des {context} tokens qu\u2019accepte {model}.',
  'costChart.chartLabel':
    'Graphique pour {model}. FLOP de la passe avant par token\u202f: {firstTotal} à T = {firstT}, {lastTotal} à T = {lastT}\u202f; le terme des paramètres reste à {parameter} tandis que le terme de l\u2019attention passe de {firstAttention} à {lastAttention}. La part de l\u2019attention dans les calculs d\u2019un bloc passe de {firstShare} à {lastShare}. {note}',
  'costChart.legendTotal': 'total',
  'costChart.legendParameter': 'terme des paramètres 2N (constant)',
  'costChart.legendAttention': 'terme de l\u2019attention 4·L·T·d',
  'costChart.flopsTitle': 'FLOP de la passe avant par token',
  'costChart.shareTitle': 'Part de l\u2019attention dans le calcul d\u2019un bloc',
  'costChart.crossoverWithin': 'croisement T = {crossover}',
  'costChart.crossoverPast': 'croisement à T = {crossover}',
  'costChart.axisT': 'T (tokens, échelle log)',
  'costChart.readout':
    'À T = {seqLen}\u202f: {total} par token pour la passe avant (paramètres {parameters}, attention {attention})\u202f; l\u2019attention représente {share} des calculs d\u2019un bloc.',
  'costChart.flops': '{flops}FLOP',
};
