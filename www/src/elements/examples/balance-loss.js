// The load-balancing loss n·Σ f_i·P_i for an even split and for everything sent to one expert.
import { h } from '../base.js';
import { exampleForm, listText, say, value } from './form.js';
import { lazyFormat } from '../../format.js';

const loss = lazyFormat({ minimumFractionDigits: 1, maximumFractionDigits: 3 });

export default {
  title: 'The load-balancing loss',
  intro: 'f is the share of tokens each expert received, P the router\u2019s average probability for it; the loss is lowest when both are even.',
  render({ lib, defaults, uid }) {
    const b = defaults.balance;
    const part = (key, legend, [f, p]) =>
      exampleForm({
        uid: `${uid}-${key}`,
        legend,
        fields: [
          { key: 'f', name: 'the fractions', label: 'Fractions f', kind: 'list', value: listText(f) },
          { key: 'p', name: 'the probabilities', label: 'Probabilities P', kind: 'list', value: listText(p) },
        ],
        compute: (v) => lib.example_balance(v.f, v.p),
        show: (x) => say('Loss: ', value(loss.format(x))),
      });
    return h('div', { class: 'parts' }, part('even', 'An even split', b.even), part('one', 'Everything to expert 0', b.all_to_one));
  },
};
