// <tb-ablation> and <tb-stream> on a real model: weights-src a Hugging Face checkpoint folder (or the
// reader's own, picked in the model switcher), opened in the checkpoint worker
// (../checkpoint/client.js). The reader gives the text (by default the lesson's held-out text, which
// TinyGPT never trained on) and the positions a window reads, and measures: a forward pass at a
// time in the worker, its progress shown, Cancel between two passes. The figures are what `tblock
// ablate` / `tblock stream` print for the same folder and text, shown as a results-src file is.
//
//   const real = checkpointExperiment(element, { name, title, table })   // held across renders
//     name: 'ablation' | 'stream'; title: the widget's heading; table(t): { what, columns, rows }
//     as comparisonFigure takes them (experiment-parts.js)
//   real.render(files, switcher)   // as checkpoint-attention.js: the nodes, or null when the
//                                  // checkpoint failed (the element warns and runs TinyGPT)
//   real.leave()                   // another model, or the element left the page: a run stops

import { h } from './base.js';
import { formatInteger } from '../format.js';
import { problemText } from '../models/worded.js';
import { checkpointNote, shownCheckpoint, typedText } from './checkpoint-shown.js';
import { measuredFigure } from './experiment-parts.js';
import { speakEnglish } from '../i18n.js';
import checkpointTexts from '../locales/en/checkpoint.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(checkpointTexts, panelsTexts);

export const CHECKPOINT_EXPERIMENT_CSS = `
.real-run textarea { width: 100%; box-sizing: border-box; min-height: 4.5rem; font: inherit; }
.real-run .row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.4rem 0; }
.real-run input[type="number"] { width: 6rem; }
.real-run progress { width: 100%; }
`;

export function checkpointExperiment(element, { name, title, table }) {
  let run = null; // the run under way: client.js's { result, stop }
  let shown = null; // { href, found }: the last figures, kept across renders
  const stop = () => {
    run?.stop();
    run = null;
    element.busy = false;
  };
  const checkpoint = shownCheckpoint(element, stop);
  const typed = typedText(element, '');
  return {
    leave: checkpoint.leave,
    loading: checkpoint.loading,
    render(files, switcher = null) {
      const { c, nodes } = checkpoint.open(files, title(element.t), switcher);
      if (!c) return nodes;
      stop(); // a render starts again from its controls
      return readyView(element, c, files, switcher, {
        typed,
        title,
        table,
        shown: () => (shown?.href === files.href ? shown.found : null),
        measure(asked, onStepped) {
          stop();
          const mine = c.experiment({ name, ...asked }, onStepped);
          run = mine;
          element.busy = true;
          return mine.result
            .then((found) => {
              if (found) shown = { href: files.href, found };
              return found;
            })
            .finally(() => {
              if (run === mine) run = null;
              element.busy = run !== null;
            });
        },
        stop,
      });
    },
  };
}

function readyView(element, c, files, switcher, how) {
  const { t, locale } = element;
  const { info } = c;
  const config = info.config;
  const id = (part) => `${element.uid}-real-${part}`;
  const text = h('textarea', { id: id('text'), spellcheck: false, 'aria-describedby': id('text-help') }, how.typed.value());
  text.addEventListener('input', () => how.typed.keep(text.value));
  const contextInput = h('input', {
    id: id('context'),
    type: 'number',
    min: 1,
    max: info.longest_context,
    step: 1,
    value: String(info.context),
    'aria-describedby': id('context-help'),
  });
  const measure = h('button', { type: 'button' }, t('checkpoint.measure'));
  const cancel = h('button', { type: 'button', hidden: true }, t('panels.cancel'));
  const progress = h('progress', { hidden: true, 'aria-label': t('checkpoint.measuringLabel') });
  const status = h('p', { class: 'muted', role: 'status' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const output = h('div', { class: 'output' });
  const note = checkpointNote(files, info, t, c);
  const { what, columns, rows } = how.table(t);
  const show = (found) => output.replaceChildren(measuredFigure(found, what, columns, rows, t));
  const running = (on) => {
    measure.hidden = on;
    cancel.hidden = !on;
    progress.hidden = !on;
    text.disabled = contextInput.disabled = on;
  };

  measure.addEventListener('click', async () => {
    error.hidden = true;
    const typed = text.value.trim() === '' ? null : text.value;
    const context = Number(contextInput.value);
    running(true);
    Object.assign(progress, { value: 0, max: 1 });
    status.textContent = t('checkpoint.measuringStart');
    let found;
    try {
      found = await how.measure(
        { text: typed ?? undefined, textName: t(typed === null ? 'checkpoint.heldOutText' : 'checkpoint.yourText'), context: contextInput.value === '' ? undefined : context },
        (passes, total) => {
          Object.assign(progress, { value: passes, max: total || 1 });
          status.textContent = t('checkpoint.measuring', { passes: formatInteger(passes, locale), total: formatInteger(total, locale) });
        },
      );
    } catch (err) {
      running(false);
      status.textContent = '';
      error.textContent = problemText(err, t);
      error.hidden = false;
      return;
    }
    running(false);
    if (!found) return; // stopped: Cancel said so
    status.textContent = t('checkpoint.measured', { tokens: formatInteger(found.measured.tokens, locale) });
    show(found);
  });
  cancel.addEventListener('click', () => {
    how.stop();
    running(false);
    status.textContent = t('checkpoint.measureStopped');
    measure.focus();
  });
  const last = how.shown();
  if (last) show(last);
  const form = h(
    'div',
    { class: 'real-run' },
    h('label', { htmlFor: text.id }, t('checkpoint.experimentText')),
    text,
    h('p', { id: id('text-help'), class: 'muted' }, t('checkpoint.experimentTextHelp')),
    h(
      'div',
      { class: 'row' },
      h('label', { htmlFor: contextInput.id }, t('checkpoint.contextLabel')),
      contextInput,
      h('span', { id: id('context-help'), class: 'muted' }, t('checkpoint.contextHelp', { longest: formatInteger(info.longest_context, locale) })),
    ),
    h('div', { class: 'row' }, measure, cancel),
    progress,
  );
  return [h('h3', {}, how.title(t)), switcher, note, form, status, error, output].filter(Boolean);
}
