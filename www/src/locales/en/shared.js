export default {
  // base.js: every widget
  'base.libraryFailed': 'This widget could not load its model library: {error}',
  'base.libraryFailedPrerendered':
    'This widget shows the figures it was built with; it could not load its model library, so it cannot change them: {error}',
  'base.legend': 'Legend',
  'attr.notWhole': '{name} "{text}" is not a whole number; {using}',
  'attr.tooLarge': '{name} "{text}" is far too large; {using}',
  'attr.usingDefault': 'using the default',
  'attr.using': 'using {value}',
  'attr.notNumber': '{name}: "{text}" is not a number; write numbers separated by commas',

  // Numbers a reader types (format-cost.js)
  'parse.empty': '{name} is empty: type a number',
  'parse.notNumber': '{name} "{text}" is not a number: type digits, like 491,520 or 1.2e20',

  // Lists of positions (charts/mask-grid.js)
  'positions.none': 'none',
  'positions.separator': ', ',
  'positions.query': { one: 'query {query}: key {keys}', other: 'query {query}: keys {keys}' },
};
