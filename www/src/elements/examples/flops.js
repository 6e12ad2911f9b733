// FLOPs: 2N per generated token, 6·N·D for a training run.
import { h } from '../base.js';
import { formatScientific } from '../../format.js';
import { exampleForm, exponentText, say, value } from './form.js';

export default {
  title: 'Counting FLOPs',
  intro: 'Each parameter costs a multiply and an add per token going forward, and about twice that again going backward.',
  render({ lib, defaults, uid }) {
    const f = defaults.flops;
    const infer = exampleForm({
      uid: `${uid}-infer`,
      legend: 'Generating one token',
      fields: [{ key: 'n', name: 'parameters', label: 'Parameters N', kind: 'number', value: exponentText(f.infer_params), min: 0 }],
      // C_infer does not depend on the tokens; one token is passed because the call takes both.
      compute: (v) => lib.example_flops(v.n, 1),
      show: (r) => say(`C_infer(${exponentText(r.params)}) = `, value(formatScientific(r.c_infer)), ' FLOPs'),
    });
    const runs = f.train.map(([n, d], i) =>
      exampleForm({
        uid: `${uid}-train${i}`,
        legend: `Training run ${i + 1}`,
        fields: [
          { key: 'n', name: 'parameters', label: 'Parameters N', kind: 'number', value: exponentText(n), min: 0 },
          { key: 'd', name: 'tokens', label: 'Training tokens D', kind: 'number', value: exponentText(d), min: 0 },
        ],
        compute: (v) => lib.example_flops(v.n, v.d),
        show: (r) => say(`C_train(${exponentText(r.params)}, ${exponentText(r.tokens)}) = `, value(formatScientific(r.c_train)), ' FLOPs'),
      }),
    );
    return h('div', { class: 'parts' }, infer, runs);
  },
};
