export default {
  // <tb-masks>
  'masks.title': 'Encoder and decoder attention',
  'masks.tokens': 'Number of tokens',
  'masks.slider': 'Number of tokens (slider)',
  'masks.position': 'Change token at position',
  'masks.option': '{position} (id {id})',
  'masks.typeWhole': 'Number of tokens: type a whole number',
  'masks.encoderBlock': 'Encoder block',
  'masks.decoderBlock': 'Decoder block',
  'masks.flagOff': '(causal flag off)',
  'masks.flagOn': '(causal flag on)',
  'masks.encoder': 'Encoder',
  'masks.decoder': 'Decoder',
  'masks.pairs': '{name}: {pairs} of {total} pairs allowed',
  'masks.changed': 'Outputs changed: {positions}',
  'masks.unchanged': 'Unchanged: {positions}',
  'masks.figure': '{caption}. {rows}. Outputs changed: {positions}.',
  'masks.sentence':
    'Token {position} changes from id {old} to id {new}. Rows are queries, columns keys; the dot after each row shows whether that output moved.',
  'masks.legendAllowed': 'allowed pair',
  'masks.legendChanged': 'output that changed (and the changed token\u2019s column)',
};
