export default {
  // <tb-tiny-gpt>
  'tinyGpt.title': 'TinyGPT, reading',
  'tinyGpt.text': 'Text',
  'tinyGpt.modelShipped': 'trained on this page (shipped)',
  'tinyGpt.modelUntrained': 'untrained (seed {seed})',
  'tinyGpt.badSeed': 'seed "{text}" is not a whole number; showing the trained model',
  'tinyGpt.badNumber': '{name} "{text}" is not a number; using {using}',
  'tinyGpt.everyCharacter': 'every character',
  'tinyGpt.reading': '"{text}" → ids ({ids}) → {stream} → {logits}',
  'tinyGpt.stream': 'stream',
  'tinyGpt.logits': 'logits',
  'tinyGpt.dropped': {
    one: ' · the first character does not fit in {positions} positions',
    other: ' · the first {dropped} characters do not fit in {positions} positions',
  },
  'tinyGpt.streamNote': 'rows are positions, columns the residual stream\u2019s numbers',
  'tinyGpt.logitsNote': 'rows are positions, columns the 50 characters; the outlined cell in each row is the likeliest next one',
  'tinyGpt.nextTitle': 'Likeliest next characters',
  'tinyGpt.after': 'after {char} (position {position} of {total}): {guesses}',
  'tinyGpt.separator': ', ',
  'tinyGpt.best': 'Best guess after the last character: "{char}".',
};
