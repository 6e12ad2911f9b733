// The reader's own Hugging Face checkpoint, dropped or picked in "Your checkpoint…"
// (controls/checkpoint-picker.js): opened in a checkpoint worker (client.js) before it is shared
// with the page, so that what cannot be opened is said in the panel and the model shown stays.
// Once shared, the page holds it open (its worker, its memory) while it is the reader's
// checkpoint; a forget or a newer checkpoint lets it go (its worker ends once no widget shows it).
// The bundles of `make dist` carry a stand-in that says a real checkpoint runs in the served pages
// (scripts/dist/bundle.mjs, plugin `served-only`).
//
//   const load = openYours(checkpoint, onSettled)   // checkpoint: realCheckpoint(name, files)
//     load.c        the client's entry: state, bars, problem (client.js); onSettled() when opened or failed
//     load.hold()   the page holds it: call once it is shared (publishCheckpoint)
//     load.drop()   not wanted (Cancel, a newer choice, a failure): its worker ends unless a widget shows it

import { leaveCheckpoint, openCheckpoint } from './client.js';
import { latestCheckpoint, onCheckpoint } from '../models/your-checkpoint.js';

let held = null; // the checkpoint the page holds open
let listening = false;

/** Lets the held checkpoint go once it is no longer the reader's. */
function follow() {
  if (listening) return;
  listening = true;
  onCheckpoint(() => {
    if (held && latestCheckpoint() !== held) {
      leaveCheckpoint(held.href, held);
      held = null;
    }
  });
}

export function openYours(checkpoint, onSettled) {
  const loader = {}; // this load's own use of the worker, until it is held or dropped
  const c = openCheckpoint(checkpoint, onSettled, loader);
  return {
    c,
    hold() {
      follow();
      if (held && held !== checkpoint) leaveCheckpoint(held.href, held);
      held = checkpoint;
      openCheckpoint(checkpoint, () => {}, checkpoint);
      leaveCheckpoint(checkpoint.href, loader);
    },
    drop() {
      leaveCheckpoint(checkpoint.href, loader);
    },
  };
}
