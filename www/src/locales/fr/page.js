export default {
  'page.models': { one: '{count} modèle, compté par la bibliothèque WebAssembly.', other: '{count} modèles, comptés par la bibliothèque WebAssembly.' },
  'page.libraryFailedPrerendered': 'La bibliothèque de modèles n\u2019a pas pu être chargée\u202f: les chiffres sont ceux calculés à la construction de cette page et ne peuvent pas changer\u202f: {error}',
  'page.libraryFailed': 'La bibliothèque de modèles n\u2019a pas pu être chargée, cette page ne peut donc pas afficher ses chiffres\u202f: {error}',
};
