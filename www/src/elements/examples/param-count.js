// Counting parameters: TinyGPT counted off its own code, checked against the analytic model, and
// GPT-2 small with and without its attention biases.
import { formatInteger } from '../../format.js';
import { exampleForm, say, steps, value } from './form.js';

const shape = ([a, b]) => `${formatInteger(a)} × ${formatInteger(b)}`;

export default {
  title: 'Counting the parameters',
  intro: 'Add up one block, multiply by the number of blocks, and add the tables and the final norm.',
  render({ lib, uid }) {
    return exampleForm({
      uid,
      fields: [],
      compute: () => lib.example_param_count(),
      show: (r) => [
        steps([
          ['one TinyGPT block', formatInteger(r.tiny_per_block)],
          ['token table', shape(r.token_table_shape)],
          ['position table', shape(r.position_table_shape)],
          ['final norm', formatInteger(r.final_norm)],
          ['TinyGPT in all', formatInteger(r.tiny_total)],
          [
            'the analytic model\u2019s count of the same configuration',
            formatInteger(r.tiny_total_analytic),
            r.tiny_total_analytic === r.tiny_total ? '(they agree)' : '(they differ)',
          ],
          ['GPT-2 small without attention biases', formatInteger(r.gpt2_small_without_attention_biases)],
          ['GPT-2 small, with them', formatInteger(r.gpt2_small)],
        ]),
        say('GPT-2 small\u2019s published count is ', value(formatInteger(r.gpt2_small)), ': the biases on its attention projections make the difference.'),
      ],
    });
  },
};
