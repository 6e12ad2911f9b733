export default {
  'memory.title': 'Mémoire de {model}',
  'memory.batch': 'Lot B (séquences)',
  'memory.seqLen': 'Contexte T (tokens)',
  'memory.fullContext': 'Utiliser tout le contexte ({context})',
  'memory.kvNote':
    'Le cache garde une clé et une valeur par token dans chacun des {layers} blocs, pour les {kvHeads} têtes clé/valeur (n_kv_heads), et non pour les {heads} têtes de requête\u202f: {why}',
  'memory.kvShared':
    '{model} partage chaque tête clé/valeur entre plusieurs têtes de requête (attention à requêtes groupées, ou grouped-query attention), ce qui réduit le cache.',
  'memory.kvOwn': 'dans {model}, chaque tête de requête a sa propre tête clé/valeur, si bien que les deux nombres sont égaux.',
  'memory.weightsFixed': 'Les poids sont fixés une fois chargés\u202f; le cache grandit avec chaque token de chaque séquence du lot.',
  'memory.batchName': 'lot',
  'memory.notNumber': '{name} n\u2019est pas un nombre\u202f: tapez un nombre entier',
  'memory.caption': 'Mémoire de {model}\u202f: poids et cache clé/valeur',
  'memory.format': 'Format des nombres',
  'memory.weights': 'Poids',
  'memory.kvPerToken': 'Cache KV par token',
  'memory.kvFor': 'Cache KV pour B = {batch}, T = {seqLen}',
  'memory.dtype': '{dtype} ({bits} bits)',
  'memory.exactBytes': { one: '{bytes} octet', other: '{bytes} octets' },
};
