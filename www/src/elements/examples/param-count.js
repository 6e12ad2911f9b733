// Counting parameters: TinyGPT counted off its own code, checked against the analytic model, and
// GPT-2 small with and without its attention biases.
import { formatInteger } from '../../format.js';
import { exampleForm, say, sentence, shapeText, steps, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.paramCountTitle',
  intro: 'example.paramCountIntro',
  render({ lib, uid, t }) {
    const integer = (n) => formatInteger(n, t.locale);
    return exampleForm({
      uid,
      t,
      fields: [],
      compute: () => lib.example_param_count(),
      show: (r) => [
        steps([
          [t('example.paramCountBlock'), integer(r.tiny_per_block)],
          [t('example.paramCountTokenTable'), shapeText(r.token_table_shape, t.locale)],
          [t('example.paramCountPositionTable'), shapeText(r.position_table_shape, t.locale)],
          [t('example.paramCountFinalNorm'), integer(r.final_norm)],
          [t('example.paramCountTiny'), integer(r.tiny_total)],
          [
            t('example.paramCountAnalytic'),
            integer(r.tiny_total_analytic),
            t(r.tiny_total_analytic === r.tiny_total ? 'example.paramCountAgree' : 'example.paramCountDiffer'),
          ],
          [t('example.paramCountWithoutBiases'), integer(r.gpt2_small_without_attention_biases)],
          [t('example.paramCountWithBiases'), integer(r.gpt2_small)],
        ]),
        say(...sentence(t, 'example.paramCountResult', { params: value(integer(r.gpt2_small)) })),
      ],
    });
  },
};
