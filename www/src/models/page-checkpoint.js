// An author's checkpoint for the widgets that run a character model: `weights-src` is the URL, on
// the page's own site, of a model directory that `tblock train` wrote ("models/mine/") or of its
// model.safetensors; config.json and vocab.json are read from beside it. Each URL is fetched once
// for the page, with its progress, and shared by every widget that names it.
//
//   const load = pageCheckpoint(src, limit, onChange, t, kindOf)    // limit: CharModel.checkpoint_limit()
//     { state: 'loading' }  |  { state: 'ready', files }  |  { state: 'error', message }
//   kindOf(config text) -> 'tiny-gpt' | 'checkpoint' (the library's config_kind): a folder whose
//   config.json is a Hugging Face checkpoint's is not fetched here but given as
//   files = { kind: 'checkpoint', name, href } for the checkpoint worker (../checkpoint/client.js);
//   so is a sharded checkpoint's model.safetensors.index.json (href: the index's URL)
//   onChange() runs when it is loaded or fails (the widget re-renders); `message` is worded by `t`,
//   the widget's translator
//   loadingView(load, src, t)   // what a widget shows meanwhile: a sentence, a progress bar and Cancel
//
// Cancel stops the download for every widget that waits on it, as cancelling a dropped checkpoint
// does: they say so and run the model they would run without weights-src.

import { h } from '../elements/base.js';
import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { speakEnglish, translator } from '../i18n.js';
import { fetchSameSite, siteUrl } from './read-stream.js';
import { problemText, wordedError } from './worded.js';
import { CONFIG_LIMIT } from './your-model.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

// A sharded Hugging Face checkpoint's index: weights-src may name it rather than its folder, which
// spares the folder's model.safetensors being asked for first (and answering 404).
const INDEX = /\/model\.safetensors\.index\.json$/i;

// URL -> { state, files | problem(t), waiting: Set of callbacks, bars: Set of <progress>, abort }
const loads = new Map();

/** The checkpoint at `src` (weights of at most `limit` bytes): loaded, loading or failed. */
export function pageCheckpoint(src, limit, onChange, t = translator('en'), kindOf = null) {
  const base = siteUrl(src);
  const index = INDEX.test(base?.pathname ?? '');
  if (!base || !(base.pathname.endsWith('/') || /\.safetensors$/i.test(base.pathname) || index)) {
    return { state: 'error', message: t('panels.weightsNotModel', { src: clipText(src) }) };
  }
  const weightsUrl = base.pathname.endsWith('/') ? new URL('model.safetensors', base) : base;
  const key = weightsUrl.href;
  let load = loads.get(key);
  if (!load) {
    load = { state: 'loading', waiting: new Set(), bars: new Set(), abort: new AbortController() };
    loads.set(key, load);
    const folder = base.pathname.endsWith('/');
    (index ? Promise.resolve(checkpointFiles(base)) : folder && kindOf ? checkpointFolder(base, load, kindOf) : Promise.resolve(null))
      .then((checkpoint) => checkpoint ?? fetchFiles(weightsUrl, limit, load))
      .then(
      (files) => Object.assign(load, { state: 'ready', files }),
      (err) =>
        Object.assign(load, {
          state: 'error',
          problem: load.abort.signal.aborted
            ? (t) => t('panels.weightsCancelled', { src: clipText(src) })
            : (t) => t('panels.weightsUnreadable', { src: clipText(src), error: problemText(err, t) }),
        }),
    ).finally(() => {
      for (const fn of load.waiting) fn();
      load.waiting.clear();
      load.bars.clear();
    });
  }
  if (load.state === 'loading') load.waiting.add(onChange);
  const shared = load;
  // What this widget sees of the shared load, as it goes: its problem in the widget's language.
  return {
    get state() {
      return shared.state;
    },
    get files() {
      return shared.files;
    },
    get message() {
      return shared.problem?.(t);
    },
    bars: shared.bars,
    abort: shared.abort,
  };
}

/**
 * The folder `base` as a Hugging Face checkpoint ({ kind: 'checkpoint', name, href }) when its
 * config.json says it is one; null otherwise, or when there is no config.json to read (the
 * character model's download then says what is missing, as it always has).
 */
async function checkpointFolder(base, load, kindOf) {
  let text;
  try {
    const bytes = await fetchSameSite(new URL('config.json', base), { limit: CONFIG_LIMIT, tooLarge: () => new Error('too large'), signal: load.abort.signal });
    text = new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
  return kindOf(text) === 'checkpoint' ? checkpointFiles(base) : null;
}

/** A Hugging Face checkpoint for the checkpoint worker: its folder's URL, or its index's. */
function checkpointFiles(url) {
  const name = url.pathname.split('/').at(-2);
  return { kind: 'checkpoint', name: name || url.host, href: url.href };
}

async function fetchFiles(weightsUrl, limit, load) {
  const { signal } = load.abort;
  const weights = await fetchSameSite(weightsUrl, {
    label: clipText(weightsUrl.pathname),
    limit,
    signal,
    tooLarge: (n) => wordedError((t) => t('panels.weightsTooLarge', { size: formatBytes(n, t.locale), limit: formatBytes(limit, t.locale) })),
    onRead: (read, total) => {
      for (const bar of load.bars) {
        bar.max = total || read;
        bar.value = read;
      }
    },
  });
  const text = async (name) => {
    const bytes = await fetchSameSite(new URL(name, weightsUrl), {
      label: (t) => t('panels.besideWeights', { name }),
      limit: CONFIG_LIMIT,
      tooLarge: (n) => wordedError((t) => t('panels.besideTooLarge', { name, size: formatBytes(n, t.locale) })),
      signal,
    });
    return new TextDecoder().decode(bytes);
  };
  const [config, vocab] = await Promise.all([text('config.json'), text('vocab.json')]);
  const folder = weightsUrl.pathname.split('/').slice(-2, -1)[0];
  return { name: folder || 'model.safetensors', weights, config, vocab };
}

/**
 * What a widget shows while its checkpoint loads (this module's load, or a checkpoint worker's):
 * where from, a bar that follows the bytes, and a button that cancels the download (for every
 * widget waiting on it); in the language of `t`.
 */
export function loadingView(load, src, t = translator('en')) {
  const bar = h('progress', { 'aria-label': t('panels.loadingModel') });
  // A checkpoint worker's load (../checkpoint/client.js) says how far it is and cancels itself.
  if (load.read) Object.assign(bar, { max: load.total || load.read, value: load.read });
  load.bars.add(bar);
  const stop = () => (load.cancel ? load.cancel() : load.abort?.abort());
  const cancel = h('button', { type: 'button', class: 'cancel-download', onclick: stop }, t('panels.cancelDownload'));
  return [h('p', { class: 'loading', role: 'status' }, t('panels.loadingFrom', { src: clipText(src, 60) })), bar, cancel];
}
