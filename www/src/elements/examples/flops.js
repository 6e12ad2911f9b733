// FLOPs: 2N per generated token, 6·N·D for a training run.
import { h } from '../base.js';
import { formatInteger, formatScientific } from '../../format.js';
import { exampleForm, exponentText, say, sentence, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.flopsTitle',
  intro: 'example.flopsIntro',
  render({ lib, defaults, uid, t }) {
    const f = defaults.flops;
    const flops = (x) => value(formatScientific(x, 3, t.locale));
    // N and D are written as the reader typed them into the fields (code's notation: 7e9).
    const paramsField = (n) => ({ key: 'n', name: t('example.flopsParamsName'), label: t('example.flopsParams'), kind: 'number', value: exponentText(n), min: 0 });
    const infer = exampleForm({
      uid: `${uid}-infer`,
      t,
      legend: t('example.flopsInfer'),
      fields: [paramsField(f.infer_params)],
      // C_infer does not depend on the tokens; one token is passed because the call takes both.
      compute: (v) => lib.example_flops(v.n, 1),
      show: (r) => say(...sentence(t, 'example.flopsInferResult', { n: exponentText(r.params), flops: flops(r.c_infer) })),
    });
    const runs = f.train.map(([n, d], i) =>
      exampleForm({
        uid: `${uid}-train${i}`,
        t,
        legend: t('example.flopsRun', { run: formatInteger(i + 1, t.locale) }),
        fields: [
          paramsField(n),
          { key: 'd', name: t('example.flopsTokensName'), label: t('example.flopsTokens'), kind: 'number', value: exponentText(d), min: 0 },
        ],
        compute: (v) => lib.example_flops(v.n, v.d),
        show: (r) => say(...sentence(t, 'example.flopsTrainResult', { n: exponentText(r.params), d: exponentText(r.tokens), flops: flops(r.c_train) })),
      }),
    );
    return h('div', { class: 'parts' }, infer, runs);
  },
};
