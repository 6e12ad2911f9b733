// What the real model's views share (checkpoint-attention.js, checkpoint-experiment.js): the
// checkpoint a widget shows, opened in the checkpoint worker (../checkpoint/client.js) and left
// when the widget shows another model or leaves the page (a load it alone waited on stops); while
// it loads, the loading view (where from, a bar, Cancel); when it fails, the widget's warning (the
// widget then runs TinyGPT). Busy (element.busy) while it loads, so a script or a test can wait.
//
//   const shown = shownCheckpoint(element, beforeLeave)   // beforeLeave(): what else stops
//   const { c, nodes } = shown.open(files, title, switcher)
//     c: the client's entry once ready; else nodes: the loading view, or null when it failed
//   shown.leave()
//   checkpointNote(files, info, t)   // what the checkpoint is, in a sentence (info: PageCheckpoint.info())

import { h } from './base.js';
import { clipText } from '../attributes.js';
import { formatBytes, formatInteger } from '../format.js';
import { leaveCheckpoint, openCheckpoint } from '../checkpoint/client.js';
import { loadingView } from '../models/page-checkpoint.js';
import { problemText } from '../models/worded.js';

export function shownCheckpoint(element, beforeLeave = () => {}) {
  let href = null; // the checkpoint shown (or loading)
  const leave = () => {
    beforeLeave();
    if (href) leaveCheckpoint(href, element);
    href = null;
  };
  return {
    leave,
    open(files, title, switcher = null) {
      const t = element.t;
      if (href !== files.href) leave();
      href = files.href;
      const c = openCheckpoint(files, () => element.update(), element);
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

/** What the checkpoint is, in a sentence: its name, family, parameters, storage, blocks and heads. */
export function checkpointNote(files, info, t) {
  const { locale } = t;
  return h(
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
}
