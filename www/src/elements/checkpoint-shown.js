// What the real model's views share (checkpoint-attention.js, checkpoint-experiment.js): the
// checkpoint a widget shows, opened in the checkpoint worker (../checkpoint/client.js) and left
// when the widget shows another model or leaves the page (a load it alone waited on stops); while
// it loads, the loading view (where from, a bar, Cancel); when it fails, the widget's warning (the
// widget then runs TinyGPT). Busy (element.busy) while it loads, so a script or a test can wait.
//
//   const shown = shownCheckpoint(element, beforeLeave)   // beforeLeave(): what else stops
//   const { c, nodes } = shown.open(files, title, switcher)
//     c: the client's entry once ready; else nodes: the loading view, or null when it failed
//   shown.loading(files)   // whether it is still loading (opening it if need be; the element
//                          // updates when it is done): a prerendered view stays meanwhile
//   shown.leave()
//   checkpointNote(files, info, t, c)   // what the checkpoint is, in a sentence (info: PageCheckpoint.info()),
//                                       // and whether this browser keeps it, with Forget (c: the client's entry)
//   const typed = typedText(element, fallback)   // the text a view reads, kept across its renders:
//     typed.value()      // what the reader typed, else the element's `text` attribute, else `fallback`
//     typed.keep(text)   // the reader typed `text` (until the attribute changes)
//   showPiece(piece)                 // a token with its spaces, newlines and tabs made visible
//   PIECES_CSS                       // the styles of a text's tokens (ol.pieces)
//   FIRST_TEXT                       // the text a view reads before the reader types

import { h } from './base.js';
import { clipText } from '../attributes.js';
import { formatBytes, formatInteger } from '../format.js';
import { leaveCheckpoint, openCheckpoint } from '../checkpoint/client.js';
import { loadingView } from '../models/page-checkpoint.js';
import { problemText } from '../models/worded.js';
import { speakEnglish } from '../i18n.js';
import checkpointTexts from '../locales/en/checkpoint.js';

speakEnglish(checkpointTexts);

/** The text a real model's view reads first: English, as the checkpoints' training text mostly is. */
export const FIRST_TEXT = 'The residual stream carries every token through each block';

/** A text's tokens, each in a box (ol.pieces; li.query: the one chosen). */
export const PIECES_CSS = `
.pieces { display: flex; flex-wrap: wrap; gap: 0.2rem; margin: 0.4rem 0; padding: 0; list-style: none; font-family: var(--_mono); font-size: 0.85rem; }
.pieces li { padding: 0 0.25rem; border: 1px solid var(--_rule); border-radius: 3px; white-space: pre; }
.pieces li.query { border-color: var(--_fg); font-weight: 600; }
`;

export function shownCheckpoint(element, beforeLeave = () => {}) {
  let href = null; // the checkpoint shown (or loading)
  const leave = () => {
    beforeLeave();
    if (href) leaveCheckpoint(href, element);
    href = null;
  };
  const use = (files) => {
    if (href !== files.href) leave();
    href = files.href;
    return openCheckpoint(files, () => element.update(), element);
  };
  return {
    leave,
    loading: (files) => use(files).state === 'loading',
    open(files, title, switcher = null) {
      const t = element.t;
      const c = use(files);
      element.busy = c.state === 'loading';
      if (c.state === 'loading') {
        return { nodes: [h('h3', {}, title), switcher, ...loadingView(c, files.files ? files.name : files.href, t)].filter(Boolean) };
      }
      if (c.state === 'error') {
        leave();
        element.warn(t('checkpoint.unusable', { name: clipText(files.name, 60), error: problemText(c.problem, t) }));
        return { nodes: null };
      }
      return { c };
    },
  };
}

/** What the checkpoint is, in a sentence (its name, family, parameters, storage, blocks and heads), and whether it is kept. */
export function checkpointNote(files, info, t, c) {
  const { locale } = t;
  const note = h(
    'p',
    { class: 'muted model-note' },
    t('checkpoint.modelNote', {
      name: clipText(files.name, 60),
      family: info.config.family,
      parameters: formatInteger(info.parameters, locale),
      dtype: info.dtype,
      bytes: formatBytes(info.bytes, locale),
      blocks: formatInteger(info.config.n_layers, locale),
      heads: formatInteger(info.config.n_heads, locale),
    }),
  );
  note.append(' ', threadsNote(info, t, c), keptNote(c, t));
  return note;
}

/** How many threads its forward passes run on, and why one where the page could have more. */
function threadsNote(info, t, c) {
  if (info.threads > 1) return t('checkpoint.threads', { threads: formatInteger(info.threads, t.locale) });
  return t(c?.isolated === false ? 'checkpoint.oneThreadNotIsolated' : 'checkpoint.oneThread');
}

/**
 * Whether this browser keeps the weights-src folder (../checkpoint/kept-folder.js), said and
 * updated as it changes, with Forget; nothing for a folder not kept (or the reader's own files,
 * which the checkpoint picker keeps and forgets).
 */
function keptNote(c, t) {
  // data-browser-state: this browser's, not the page's, so a prerendered page leaves it empty.
  const line = h('span', { class: 'kept', tabindex: -1, 'aria-live': 'polite', dataset: { browserState: '' } });
  let placed = false;
  let forgotten = false;
  const forget = async () => {
    await c.forget();
    forgotten = true;
    fill();
    line.focus(); // the button is gone: keep the keyboard's place
  };
  const fill = () => {
    if (line.isConnected) placed = true;
    else if (placed) return unwatch(); // its view was replaced
    const bytes = c.kept && formatBytes(c.kept.bytes, t.locale);
    line.replaceChildren(
      ...(c.kept
        ? [' ', t(c.kept.fromCopy ? 'checkpoint.fromKept' : 'checkpoint.kept', { bytes }), ' ', h('button', { type: 'button', class: 'forget-kept', onclick: forget }, t('checkpoint.forgetKept'))]
        : forgotten
          ? [' ', t('checkpoint.forgotten')]
          : []),
    );
  };
  const unwatch = c.watchKept(fill);
  fill();
  return line;
}

/**
 * The text a real model's view reads, kept across the view's renders (a language switched, a
 * checkpoint kept or forgotten, another widget's model picked): what the reader typed, until the
 * element's `text` attribute is changed by the page.
 */
export function typedText(element, fallback) {
  let typed = null; // { text, over }: what was typed, over which attribute value
  const attr = () => element.attr('text', fallback);
  return {
    value: () => (typed && typed.over === attr() ? typed.text : attr()),
    keep(text) {
      typed = { text, over: attr() };
    },
  };
}

/** A token as the reader sees it: its spaces, newlines and tabs made visible. */
export function showPiece(piece) {
  return piece.replaceAll(' ', '\u2423').replaceAll('\n', '\u21b5').replaceAll('\t', '\u21e5');
}
