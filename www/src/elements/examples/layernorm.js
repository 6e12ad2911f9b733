// LayerNorm of one vector, each step shown (γ = 1, β = 0).
import { formatDecimal, formatVector } from '../../format.js';
import { exampleForm, listText, say, steps, value } from './form.js';

export default {
  title: 'LayerNorm, one step at a time',
  intro: 'Subtract the mean, divide by the spread: the vector comes out centred on 0 with a standard size, whatever scale it came in at.',
  render({ lib, defaults, uid }) {
    return exampleForm({
      uid,
      fields: [{ key: 'x', name: 'the vector', label: 'Vector x', kind: 'list', value: listText(defaults.layernorm) }],
      compute: (v) => lib.example_layernorm(v.x),
      show: (r) => [
        steps([
          ['mean μ =', formatDecimal(r.mean)],
          ['variance σ² =', formatDecimal(r.variance)],
          ['spread √(σ² + ε) =', formatDecimal(r.spread)],
          ['centred x − μ =', formatVector(r.centred)],
          ['output (x − μ) / spread =', formatVector(r.output)],
        ]),
        say(
          `The same vector times ${formatDecimal(r.scaled_by)} normalises to `,
          value(formatVector(r.scaled_output)),
          ': the scale of the input is gone.',
        ),
      ],
    });
  },
};
