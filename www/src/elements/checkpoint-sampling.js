// <tb-tiny-gpt> on a real model: weights-src a Hugging Face checkpoint folder (or the reader's own,
// picked in the model switcher), opened in the checkpoint worker (../checkpoint/client.js). The text
// the reader types as the checkpoint's tokenizer cuts it, and the sampler (sampling-view.js) at the
// model's own vocabulary: the next token's ten likeliest before and after temperature, top-k and
// top-p, and Write on, a continuation drawn a token a task in the worker, shown as it grows, with
// Stop. The numbers are the library's: the decoder `tblock inspect` runs and TinyGPT's sampler.
//
//   const real = checkpointSampling(element)   // held by the element across its renders
//   real.render(files, switcher, settings)     // as checkpoint-attention.js; settings: the sampler's
//                                              // starting { temperature, topK, topP }
//   real.leave()

import { h } from './base.js';
import { formatInteger } from '../format.js';
import { FIRST_TEXT, PIECES_CSS, checkpointNote, showPiece, shownCheckpoint, typedText } from './checkpoint-shown.js';
import { SHOWN, samplingView } from './sampling-view.js';
import { speakEnglish } from '../i18n.js';
import checkpointTexts from '../locales/en/checkpoint.js';
import tinyGptTexts from '../locales/en/tiny-gpt.js';

speakEnglish(checkpointTexts, tinyGptTexts);

/** The styles of the real model's view, besides the sampler's. */
export const CHECKPOINT_SAMPLING_CSS = PIECES_CSS;

/** Tokens a continuation writes, and the seed it draws them with. */
const LENGTH = 32;
const SEED = 1;

/** The texts that name what is sampled: a token. */
const TOKENS = {
  caption: 'checkpoint.samplingCaption',
  next: 'checkpoint.samplingNext',
  kept: 'checkpoint.samplingKept',
  more: 'checkpoint.samplingMore',
  explain: 'checkpoint.samplingExplain',
};


export function checkpointSampling(element) {
  let writing = null; // the continuation under way: client.js's { result, stop }
  const stop = () => {
    writing?.stop();
    writing = null;
  };
  const shown = shownCheckpoint(element, stop);
  const typed = typedText(element, FIRST_TEXT);
  return {
    leave: shown.leave,
    loading: shown.loading,
    render(files, switcher = null, settings = {}) {
      const { c, nodes } = shown.open(files, element.t('tinyGpt.title'), switcher);
      if (!c) return nodes;
      stop();
      return readyView(element, c, files, switcher, settings, typed, {
        write(args, onDrawn) {
          stop();
          const run = c.experiment({ name: 'continuation', count: LENGTH, seed: SEED, ...args }, (passes, total, drawn) => drawn && onDrawn(drawn));
          writing = run;
          return run.result.finally(() => {
            if (writing === run) writing = null;
          });
        },
        stop,
      });
    },
  };
}

function readyView(element, c, files, switcher, settings, typed, how) {
  const { t, locale } = element;
  const { info } = c;
  const textId = `${element.uid}-real-text`;
  const input = h('input', {
    id: textId,
    type: 'text',
    value: typed.value(),
    spellcheck: false,
    autocomplete: 'off',
    'aria-describedby': `${textId}-help`,
  });
  const help = h('span', { id: `${textId}-help`, class: 'muted' }, t('checkpoint.textHelp', { longest: formatInteger(info.longest_text, locale) }));
  const pieces = h('ol', { class: 'pieces', 'aria-label': t('checkpoint.tokens') });
  const source = {
    async next(text, temperature, topK, topP) {
      // Busy while the worker reads the text, so a script or a test can wait for the table.
      element.busy = true;
      let r;
      try {
        r = await c.nextTokens({ text, temperature, topK, topP }, element);
      } finally {
        element.busy = false;
      }
      if (!r) return null;
      pieces.replaceChildren(...r.pieces.map((p, k) => h('li', { title: t('checkpoint.tokenTitle', { position: k + 1, id: String(r.ids[k]) }) }, showPiece(p))));
      const rows = r.next.slice(0, SHOWN).map((x) => ({ label: showPiece(x.piece), model: x.model, sampled: x.sampled, kept: x.kept }));
      return { rows, kept: r.kept_count, total: info.config.vocab_size };
    },
    async write(text, temperature, topK, topP, onText) {
      // Past the model's context it reads the last half of it: said under the text.
      const note = (drawn) =>
        drawn.reads_from > 1 ? t('checkpoint.readsFrom', { context: formatInteger(drawn.context, locale), from: formatInteger(drawn.reads_from, locale) }) : '';
      const found = await how.write({ text, temperature, topK, topP }, (drawn) => onText(text + drawn.text, note(drawn)));
      return found ? text + found.text : null;
    },
    stop: how.stop,
    length: LENGTH,
    seed: SEED,
    words: TOKENS,
  };
  const sampling = samplingView({ uid: element.uid, settings, source: () => source, text: () => input.value, t });
  // A text the tokenizer or the model refuses is said by the sampler's own message.
  input.addEventListener('input', () => {
    typed.keep(input.value);
    sampling.refresh();
  });
  sampling.refresh();
  const controls = h('div', { class: 'controls' }, h('label', { htmlFor: textId }, t('tinyGpt.text')), input, help);
  return [h('h3', {}, t('tinyGpt.title')), switcher, controls, checkpointNote(files, info, t, c), pieces, sampling.element].filter(Boolean);
}
