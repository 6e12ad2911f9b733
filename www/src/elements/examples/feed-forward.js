// The feed-forward network: widen d to 4d, GELU, narrow back; its weights counted off a real layer.
import { formatInteger } from '../../format.js';
import { exampleForm, say, steps, value } from './form.js';

const shape = ([a, b]) => `${formatInteger(a)} × ${formatInteger(b)}`;

export default {
  title: 'The feed-forward network and its weights',
  intro: 'Each token is widened from d to 4d numbers, passed through GELU, and narrowed back to d.',
  render({ lib, defaults, uid }) {
    const d = defaults.feed_forward;
    return exampleForm({
      uid,
      fields: [{ key: 'd', name: 'width d', label: 'Model width d', kind: 'number', value: String(d.d), min: 1, max: d.max_d, step: 1 }],
      compute: (v) => lib.example_feed_forward(v.d),
      show: (r) => [
        steps([
          ['hidden width 4d =', formatInteger(r.hidden)],
          ['W_1', shape(r.w1_shape)],
          ['b_1', formatInteger(r.hidden)],
          ['W_2', shape(r.w2_shape)],
          ['b_2', formatInteger(r.d)],
        ]),
        say('Parameters, counted off the layer the library built: ', value(formatInteger(r.params)), '.'),
      ],
    });
  },
};
