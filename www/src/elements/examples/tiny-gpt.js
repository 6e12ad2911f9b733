// TinyGPT end to end: ids in, a stream and logits out, and the parameter count.
import { formatInteger } from '../../format.js';
import { exampleForm, listText, say, steps } from './form.js';

const shape = ([a, b]) => `${formatInteger(a)} × ${formatInteger(b)}`;

export default {
  title: 'TinyGPT from token ids to logits',
  intro: 'A whole GPT in miniature: each id picks a row of the token table, the rows pass through both blocks, and the last step scores every vocabulary entry at every position.',
  render({ lib, defaults, uid }) {
    return exampleForm({
      uid,
      fields: [
        { key: 'ids', name: 'token ids', label: 'Token ids', kind: 'list', value: listText(defaults.tiny_gpt.ids) },
        { key: 'seed', name: 'seed', label: 'Seed', kind: 'number', value: String(defaults.seed), min: 0, step: 1 },
      ],
      compute: (v) => lib.example_tiny_gpt(v.ids, v.seed),
      show: (r) => [
        steps([
          ['ids', r.ids.join(', ')],
          ['→ stream', shape(r.stream_shape)],
          ['→ logits', shape(r.logits_shape)],
          ['highest-scoring next token at each position:', r.next_token.join(', ')],
        ]),
        say(`The model holds ${formatInteger(r.n_params)} parameters.`),
      ],
    });
  },
};
