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
};
