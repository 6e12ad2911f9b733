// The residual stream: a block never overwrites x, it adds what each sublayer writes.
import { formatDecimal, formatVector } from '../../format.js';
import { exampleForm, listText, say, steps, value } from './form.js';

export default {
  title: 'The residual stream adds, it never overwrites',
  intro: 'Attention writes a vector into the stream, then the feed-forward writes another; each is added to what was there.',
  render({ lib, defaults, uid }) {
    const d = defaults.residual;
    return exampleForm({
      uid,
      fields: [
        { key: 'x', name: 'x', label: 'Stream x entering the block', kind: 'list', value: listText(d.x) },
        { key: 'attention', name: "attention's output", label: 'What attention writes', kind: 'list', value: listText(d.attention) },
        { key: 'feed_forward', name: "the feed-forward's output", label: 'What the feed-forward writes', kind: 'list', value: listText(d.feed_forward) },
      ],
      compute: (v) => lib.example_residual(v.x, v.attention, v.feed_forward),
      show: (r) => [
        steps([
          ['x', formatVector(r.x)],
          [`+ attention ${formatVector(r.attention_adds)} =`, formatVector(r.after_attention)],
          [`+ feed-forward ${formatVector(r.feed_forward_adds)} =`, formatVector(r.after_feed_forward)],
        ]),
        say(
          'A real TinyGPT block with both sublayers switched off, run on a real stream, changes its input by at most ',
          value(formatDecimal(r.both_off_largest_change)),
          ': with nothing to add, the stream passes through unchanged.',
        ),
      ],
    });
  },
};
