// Français : les mêmes clés que en.js (un test unitaire le vérifie). Typographie française : espace
// fine insécable (U+202F) avant « ; : ! ? » et à l'intérieur des guillemets.

export default {
  'base.libraryFailed': 'Ce widget n\u2019a pas pu charger sa bibliothèque de modèles\u202f: {error}',
  'base.libraryFailedPrerendered':
    'Ce widget montre les chiffres calculés à sa construction\u202f; il n\u2019a pas pu charger sa bibliothèque de modèles et ne peut donc pas les changer\u202f: {error}',
  'base.legend': 'Légende',
  'attr.notWhole': '{name} «\u202f{text}\u202f» n\u2019est pas un nombre entier\u202f; {using}',
  'attr.tooLarge': '{name} «\u202f{text}\u202f» est bien trop grand\u202f; {using}',
  'attr.usingDefault': 'valeur par défaut utilisée',
  'attr.using': '{value} utilisé à la place',
  'attr.notNumber': '{name}\u202f: «\u202f{text}\u202f» n\u2019est pas un nombre\u202f; écrivez des nombres séparés par des virgules',

  'parse.empty': '{name} est vide\u202f: tapez un nombre',
  'parse.notNumber': '{name} «\u202f{text}\u202f» n\u2019est pas un nombre\u202f: tapez des chiffres, par exemple 491\u202f520 ou 1,2e20',

  'positions.none': 'aucune',
  'positions.separator': ', ',
  'positions.query': { one: 'requête {query}\u202f: clé {keys}', other: 'requête {query}\u202f: clés {keys}' },

  'masks.title': 'L\u2019attention d\u2019un encodeur et d\u2019un décodeur',
  'masks.tokens': 'Nombre de tokens',
  'masks.slider': 'Nombre de tokens (curseur)',
  'masks.position': 'Changer le token à la position',
  'masks.option': '{position} (id {id})',
  'masks.typeWhole': 'Nombre de tokens\u202f: tapez un nombre entier',
  'masks.encoderBlock': 'Bloc encodeur',
  'masks.decoderBlock': 'Bloc décodeur',
  'masks.flagOff': '(masque causal désactivé)',
  'masks.flagOn': '(masque causal activé)',
  'masks.encoder': 'Encodeur',
  'masks.decoder': 'Décodeur',
  'masks.pairs': '{name}\u202f: {pairs} paires permises sur {total}',
  'masks.changed': 'Sorties modifiées\u202f: {positions}',
  'masks.unchanged': 'Inchangées\u202f: {positions}',
  'masks.figure': '{caption}. {rows}. Sorties modifiées\u202f: {positions}.',
  'masks.sentence':
    'Le token {position} passe de l\u2019id {old} à l\u2019id {new}. Les lignes sont les requêtes, les colonnes les clés\u202f; le point au bout de chaque ligne indique si cette sortie a bougé.',
  'masks.legendAllowed': 'paire permise',
  'masks.legendChanged': 'sortie modifiée (et la colonne du token changé)',

  'cost.title': 'Ce que coûte un entraînement\u202f: 6·N·D',
  'cost.preset':
    'Réglé sur l\u2019entraînement de GPT-2 small par nanoGPT (config/train_gpt2.py). Chaque token coûte environ 6N FLOP à l\u2019entraînement\u202f: 2N pour la passe avant, le double pour la passe arrière.',
  'cost.realRuns': 'Un vrai entraînement n\u2019atteint qu\u2019une partie du pic\u202f: baissez l\u2019utilisation pour voir la durée s\u2019allonger.',
  'cost.params': 'N, paramètres',
  'cost.paramsHint': 'ceux qui participent à un produit matriciel',
  'cost.tokensPerIteration': 'Tokens par itération',
  'cost.tokensPerIterationHint': 'lot × longueur de séquence × pas de gradient',
  'cost.iterations': 'Itérations',
  'cost.iterationsHint': 'D = tokens par itération × itérations',
  'cost.peak': 'Pic, TFLOP/s',
  'cost.peakHint': 'un A100 en bf16\u202f: 312',
  'cost.utilisation': 'Utilisation (fraction du pic)',
  'cost.utilisationHint': 'au-dessus de 0, au plus 1',
  'cost.using': '{problem}\u202f; {value} utilisé à la place',
  'cost.usingNanogpt': '{problem}\u202f; l\u2019entraînement de nanoGPT est utilisé à la place',
  'cost.tokens': 'D = {tokens} tokens',
  'cost.flops': '6·N·D = {flops} FLOP',
  'cost.time': 'Environ {time} d\u2019un accélérateur à {peak} TFLOP/s avec une utilisation de {utilisation}.',
};
