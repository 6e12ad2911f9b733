export default {
  // The lesson page's own script (main.js): the presets table's status line
  'page.models': { one: '{count} model, counted by the WebAssembly library.', other: '{count} models, counted by the WebAssembly library.' },
  'page.libraryFailedPrerendered': 'The model library could not be loaded, so the figures are the ones this page was built with and cannot change: {error}',
  'page.libraryFailed': 'The model library could not be loaded, so this page cannot show its numbers: {error}',
};
