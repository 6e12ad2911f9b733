export default {
  // <tb-example>: the form every worked example shares (elements/examples/form.js) and its messages
  'example.inputs': 'Entrées',
  'example.typeNumber': '{name}\u202f: tapez un nombre',
  'example.row': '{name}, ligne {row}',
  'example.needsName': 'tb-example a besoin d\u2019un nom, parmi {allowed}\u202f; {fallback} est affiché',
  'example.unknown': 'exemple inconnu «\u202f{name}\u202f»\u202f: choisissez parmi {allowed}\u202f; {fallback} est affiché',
  'example.listComma': ', ',
  'example.listCommaDecimals': '\u202f; ',
  'example.listAnd': '{rest} et {last}',

  // residual
  'example.residualTitle': 'Le flux résiduel additionne, il n\u2019écrase jamais',
  'example.residualIntro':
    'L\u2019attention écrit un vecteur dans le flux, puis le feed-forward en écrit un autre\u202f; chacun s\u2019ajoute à ce qui s\u2019y trouvait déjà.',
  'example.residualX': 'Flux x à l\u2019entrée du bloc',
  'example.residualAttention': 'Ce qu\u2019écrit l\u2019attention',
  'example.residualAttentionName': 'la sortie de l\u2019attention',
  'example.residualFeedForward': 'Ce qu\u2019écrit le feed-forward',
  'example.residualFeedForwardName': 'la sortie du feed-forward',
  'example.residualPlusAttention': '+ attention {adds} =',
  'example.residualPlusFeedForward': '+ feed-forward {adds} =',
  'example.residualResult':
    'Un vrai bloc TinyGPT dont les deux sous-couches sont désactivées, appliqué à un vrai flux, modifie son entrée d\u2019au plus {change}\u202f: rien n\u2019étant ajouté, le flux passe tel quel.',

  // layernorm
  'example.layernormTitle': 'LayerNorm, étape par étape',
  'example.layernormIntro':
    'On soustrait la moyenne, on divise par l\u2019écart type\u202f: le vecteur ressort centré sur 0, avec une taille standard, quelle que soit son échelle de départ.',
  'example.layernormName': 'le vecteur',
  'example.layernormLabel': 'Vecteur x',
  'example.layernormMean': 'moyenne μ =',
  'example.layernormVariance': 'variance σ² =',
  'example.layernormSpread': 'écart type √(σ² + ε) =',
  'example.layernormCentred': 'centré x − μ =',
  'example.layernormOutput': 'sortie (x − μ) / écart type =',
  'example.layernormResult': 'Le même vecteur multiplié par {factor} se normalise en {output}\u202f: l\u2019échelle de l\u2019entrée a disparu.',

  // gelu
  'example.geluTitle': 'GELU sur des nombres isolés',
  'example.geluIntro':
    'GELU laisse passer les grands nombres positifs presque inchangés, écrase les négatifs vers 0 et s\u2019infléchit en douceur entre les deux.',
  'example.geluName': 'les entrées',
  'example.geluLabel': 'Nombres z',
  'example.geluCaption': 'GELU de chaque nombre',

  // feed-forward
  'example.feedForwardTitle': 'Le réseau feed-forward et ses poids',
  'example.feedForwardIntro': 'Chaque token est élargi de d à 4d nombres, passe par GELU, puis est ramené à d.',
  'example.feedForwardName': 'la largeur d',
  'example.feedForwardLabel': 'Largeur du modèle d',
  'example.feedForwardHidden': 'largeur cachée 4d =',
  'example.feedForwardResult': 'Paramètres, comptés sur la couche construite par la bibliothèque\u202f: {params}.',

  // tiny-gpt
  'example.tinyGptTitle': 'TinyGPT, des ids de tokens aux logits',
  'example.tinyGptIntro':
    'Un GPT complet en miniature\u202f: chaque id choisit une ligne de la table des tokens, les lignes traversent les deux blocs, et la dernière étape note chaque entrée du vocabulaire, à chaque position.',
  'example.tinyGptIdsName': 'les ids de tokens',
  'example.tinyGptIds': 'Ids de tokens',
  'example.tinyGptSeedName': 'la graine',
  'example.tinyGptSeed': 'Graine',
  'example.tinyGptStepIds': 'ids',
  'example.tinyGptStepStream': '→ flux',
  'example.tinyGptStepLogits': '→ logits',
  'example.tinyGptStepNext': 'token suivant le mieux noté à chaque position\u202f:',
  'example.tinyGptResult': 'Le modèle compte {params} paramètres.',

  // tied-output
  'example.tiedOutputTitle': 'La tête de sortie liée',
  'example.tiedOutputIntro':
    'La tête de sortie réutilise la table des tokens\u202f: le score de chaque entrée du vocabulaire est le produit scalaire de LN(h) avec la ligne de cette entrée.',
  'example.tiedOutputNormed': 'LN(h), la dernière position après la normalisation finale',
  'example.tiedOutputTableName': 'la table des tokens',
  'example.tiedOutputTable': 'Lignes de la table des tokens (séparées par «\u202f;\u202f»)',
  'example.tiedOutputToken': 'token {index}\u202f: {row} · {normed} =',
  'example.tiedOutputResult': 'Logits\u202f: {logits}.',

  // masks (the rest is tb-masks' own view: locales/*/masks.js)
  'example.masksTitle': 'Masques d\u2019encodeur et de décodeur',
  'example.masksIntro':
    'Un bloc encodeur laisse chaque token regarder tous les tokens\u202f; un bloc décodeur ne laisse chacun regarder que lui-même et les tokens qui le précèdent. Changez un token et voyez quelles sorties bougent.',

  // param-count
  'example.paramCountTitle': 'Compter les paramètres',
  'example.paramCountIntro': 'On additionne un bloc, on multiplie par le nombre de blocs, puis on ajoute les tables et la normalisation finale.',
  'example.paramCountBlock': 'un bloc TinyGPT',
  'example.paramCountTokenTable': 'table des tokens',
  'example.paramCountPositionTable': 'table des positions',
  'example.paramCountFinalNorm': 'normalisation finale',
  'example.paramCountTiny': 'TinyGPT en tout',
  'example.paramCountAnalytic': 'le décompte du modèle analytique pour la même configuration',
  'example.paramCountAgree': '(ils concordent)',
  'example.paramCountDiffer': '(ils diffèrent)',
  'example.paramCountWithoutBiases': 'GPT-2 small sans les biais de l\u2019attention',
  'example.paramCountWithBiases': 'GPT-2 small, avec ces biais',
  'example.paramCountResult':
    'Le décompte publié de GPT-2 small est de {params}\u202f: les biais de ses projections d\u2019attention font la différence.',

  // moe
  'example.moeTitle': 'Mélange d\u2019experts\u202f: routage et taille',
  'example.moeIntro':
    'Un routeur note le token face à chaque expert\u202f; seuls les k meilleurs s\u2019exécutent, pondérés par un softmax sur leurs scores.',
  'example.moeRouting': 'Le routage d\u2019un token',
  'example.moeScoresName': 'les scores du routeur',
  'example.moeScores': 'Scores du routeur, un par expert',
  'example.moeK': 'Experts retenus, k',
  'example.moeKept': { one: 'retenu (top {k})\u202f: expert', other: 'retenus (top {k})\u202f: experts' },
  'example.moeGates': 'coefficients (softmax sur les scores retenus)',
  'example.moeSkipped': { one: 'écarté (jamais exécuté)\u202f: expert', other: 'écartés (jamais exécutés)\u202f: experts' },
  'example.moeSkippedNone': 'écartés (jamais exécutés)\u202f:',
  'example.moeNone': 'aucun',
  'example.moeSize': 'La taille d\u2019une couche',
  'example.moeWidthName': 'la largeur d',
  'example.moeWidth': 'Largeur d',
  'example.moeExpertsName': 'le nombre d\u2019experts',
  'example.moeExperts': 'Experts',
  'example.moeOneExpert': 'un expert (un réseau feed-forward)',
  'example.moeRouter': 'routeur',
  'example.moeAllHeld': 'tous gardés en mémoire',
  'example.moeTouched': 'utilisés par token',
  'example.moeResult': 'Tous les experts doivent être gardés en mémoire\u202f; seuls k d\u2019entre eux travaillent sur un token donné.',

  // balance-loss
  'example.balanceTitle': 'La perte d\u2019équilibrage de la charge',
  'example.balanceIntro':
    'f est la part des tokens reçue par chaque expert, P la probabilité moyenne que le routeur lui attribue\u202f; la perte est minimale quand les deux sont réparties également.',
  'example.balanceEven': 'Une répartition égale',
  'example.balanceAllToOne': 'Tout vers l\u2019expert {expert}',
  'example.balanceFractionsName': 'les fractions',
  'example.balanceFractions': 'Fractions f',
  'example.balanceProbabilitiesName': 'les probabilités',
  'example.balanceProbabilities': 'Probabilités P',
  'example.balanceResult': 'Perte\u202f: {loss}',

  // flops
  'example.flopsTitle': 'Compter les FLOP',
  'example.flopsIntro':
    'Chaque paramètre coûte une multiplication et une addition par token lors de la passe avant, et environ le double lors de la passe arrière.',
  'example.flopsInfer': 'Générer un token',
  'example.flopsRun': 'Entraînement {run}',
  'example.flopsParamsName': 'les paramètres',
  'example.flopsParams': 'Paramètres N',
  'example.flopsTokensName': 'les tokens',
  'example.flopsTokens': 'Tokens d\u2019entraînement D',
  'example.flopsInferResult': 'C_infer({n}) = {flops} FLOP',
  'example.flopsTrainResult': 'C_train({n}, {d}) = {flops} FLOP',
};
