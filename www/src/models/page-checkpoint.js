// An author's checkpoint for the widgets that run a character model: `weights-src` is the URL, on
// the page's own site, of a model directory that `tblock train` wrote ("models/mine/") or of its
// model.safetensors; config.json and vocab.json are read from beside it. Each URL is fetched once
// for the page, with its progress, and shared by every widget that names it.
//
//   const load = pageCheckpoint(src, limit, onChange)    // limit: CharModel.checkpoint_limit()
//     { state: 'loading' }  |  { state: 'ready', files }  |  { state: 'error', message }
//   onChange() runs when it is loaded or fails (the widget re-renders)
//   loadingView(load, src)   // what a widget shows meanwhile: a sentence, a progress bar and Cancel
//
// Cancel stops the download for every widget that waits on it, as cancelling a dropped checkpoint
// does: they say so and run the model they would run without weights-src.

import { h } from '../elements/base.js';
import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { fetchSameSite, siteUrl } from './read-stream.js';
import { CONFIG_LIMIT } from './your-model.js';

const loads = new Map(); // URL -> { state, files | message, waiting: Set of callbacks, bars: Set of <progress> }

/** The checkpoint at `src` (weights of at most `limit` bytes): loaded, loading or failed. */
export function pageCheckpoint(src, limit, onChange) {
  const base = siteUrl(src);
  if (!base || !(base.pathname.endsWith('/') || /\.safetensors$/i.test(base.pathname))) {
    return {
      state: 'error',
      message: `weights-src "${clipText(src)}" is not a model on this site: give the URL of a folder tblock train wrote (ending in /) or of its model.safetensors, on this page's site`,
    };
  }
  const weightsUrl = base.pathname.endsWith('/') ? new URL('model.safetensors', base) : base;
  const key = weightsUrl.href;
  let load = loads.get(key);
  if (!load) {
    load = { state: 'loading', waiting: new Set(), bars: new Set(), abort: new AbortController() };
    loads.set(key, load);
    fetchFiles(weightsUrl, limit, load).then(
      (files) => Object.assign(load, { state: 'ready', files }),
      (err) =>
        Object.assign(load, {
          state: 'error',
          message: load.abort.signal.aborted
            ? `weights-src "${clipText(src)}": the download was cancelled; using the model the widget runs without it`
            : `weights-src "${clipText(src)}" could not be read: ${err.message}`,
        }),
    ).finally(() => {
      for (const fn of load.waiting) fn();
      load.waiting.clear();
      load.bars.clear();
    });
  }
  if (load.state === 'loading') load.waiting.add(onChange);
  return load;
}

async function fetchFiles(weightsUrl, limit, load) {
  const { signal } = load.abort;
  const weights = await fetchSameSite(weightsUrl, {
    label: clipText(weightsUrl.pathname),
    limit,
    signal,
    tooLarge: (n) => new Error(`the weights are ${formatBytes(n)}; the page runs models of up to ${formatBytes(limit)}`),
    onRead: (read, total) => {
      for (const bar of load.bars) {
        bar.max = total || read;
        bar.value = read;
      }
    },
  });
  const text = async (name) => {
    const bytes = await fetchSameSite(new URL(name, weightsUrl), {
      label: `${name} beside the weights`,
      limit: CONFIG_LIMIT,
      tooLarge: (n) => new Error(`${name} beside the weights is over ${formatBytes(n)}; it should be a few KB`),
      signal,
    });
    return new TextDecoder().decode(bytes);
  };
  const [config, vocab] = await Promise.all([text('config.json'), text('vocab.json')]);
  const folder = weightsUrl.pathname.split('/').slice(-2, -1)[0];
  return { name: folder || 'model.safetensors', weights, config, vocab };
}

/**
 * What a widget shows while its checkpoint loads: where from, a bar that follows the bytes, and a
 * button that cancels the download (for every widget waiting on it).
 */
export function loadingView(load, src) {
  const bar = h('progress', { 'aria-label': 'Loading the model' });
  load.bars.add(bar);
  const cancel = h('button', { type: 'button', class: 'cancel-download', onclick: () => load.abort?.abort() }, 'Cancel the download');
  return [h('p', { class: 'loading', role: 'status' }, `Loading the model from ${clipText(src, 60)}…`), bar, cancel];
}
