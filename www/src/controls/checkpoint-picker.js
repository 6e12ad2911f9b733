// "Your checkpoint…" in the model switcher of the widgets that run a character model: a panel to
// drop model.safetensors with its config.json and vocab.json (the files `tblock train` writes, or
// their folder), or to pick them. The weights are read with their progress shown and can be
// cancelled; the library checks them (models/your-checkpoint.js shares them with the page). A file
// past the library's limit is refused by its size, before it is read. Once loaded, the checkpoint
// is kept in this browser for the page where it can be; where it cannot (storage refused, no room)
// the panel says it will not survive a reload, and why. `t`: the widget's translator (English
// without it).
//
//   const picker = checkpointPicker({ uid, t, lib, select, onPick });
//   // adds two options to `select` ("your checkpoint: NAME" and "Your checkpoint…"), and
//   picker.panel      // the panel, to place after the select
//   picker.off()      // stop following the page's checkpoint (the widget's release)
//   picker.show(value) // select `value` (the reader's earlier pick, kept across a re-render)
//   onPick('checkpoint') when the reader's checkpoint is loaded or chosen

import { errorText, h } from '../elements/base.js';
import { speakEnglish, translator } from '../i18n.js';
import { dropPanelCss, dropZone } from './drop-zone.js';
import { readStream } from '../models/read-stream.js';
import { sheet } from '../elements/theme.js';
import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { checkpointKept, forgetCheckpoint, latestCheckpoint, onCheckpoint, publishCheckpoint, realCheckpoint } from '../models/your-checkpoint.js';
import { CONFIG_LIMIT } from '../models/your-model.js';
import { problemText } from '../models/worded.js';
import { openYours } from '../checkpoint/yours.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

export const CHECKPOINT = 'checkpoint';
/** The value of the "Your checkpoint…" option: not a model, the panel's opener. */
export const LOAD_CHECKPOINT = '(load-checkpoint)';
const LOAD = LOAD_CHECKPOINT;

export const checkpointSheet = sheet(`${dropPanelCss('.your-checkpoint')}
.your-checkpoint progress { width: 100%; }
`);

/** Why the checkpoint shared now will not survive a reload (`answer`: checkpointKept()'s), or ''. */
export function notKeptNote(answer, t = translator('en')) {
  if (!answer || answer.kept) return '';
  const size = () => formatBytes(answer.bytes, t.locale);
  if (answer.reason === 'too-large') return t('panels.notKeptTooLarge', { limit: formatBytes(answer.limit, t.locale), size: size() });
  if (answer.reason === 'quota') return t('panels.notKeptQuota', { size: size() });
  if (answer.reason === 'unavailable') return t('panels.notKeptUnavailable');
  return ''; // superseded: a newer checkpoint, or a forget, has its own answer
}

export function checkpointPicker({ uid, t = translator('en'), lib, select, onPick }) {
  const { locale } = t;
  const id = `${uid}-checkpoint`;
  const limit = lib.CharModel.checkpoint_limit();
  const yours = h('option', { value: CHECKPOINT });
  const load = h('option', { value: LOAD }, t('panels.yourCheckpointLoad'));
  select.append(yours, load);
  let previous = select.value;

  const file = h('input', { type: 'file', id: `${id}-files`, multiple: true, accept: '.safetensors,.json' });
  const progress = h('progress', { hidden: true, 'aria-label': t('panels.readingCheckpoint') });
  const status = h('p', { class: 'muted', role: 'status' });
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const cancel = h('button', { type: 'button' }, t('panels.cancel'));
  const forget = h('button', { type: 'button' }, t('panels.forgetCheckpoint'));
  const panel = h(
    'div',
    { class: 'your-checkpoint', id, role: 'group', 'aria-label': t('panels.yourCheckpoint'), hidden: true },
    h('p', {}, t('panels.checkpointHelp', { limit: formatBytes(limit, locale), realLimit: formatBytes(lib.page_checkpoint_limit(), locale) })),
    h('div', { class: 'row' }, h('label', { htmlFor: file.id, class: 'visually-hidden' }, t('panels.checkpointFiles')), file, cancel, forget),
    progress,
    status,
    message,
  );

  let reading = null; // { cancelled, stop? } while files are read: any newer choice cancels it
  const cancelReading = () => {
    if (reading) {
      reading.cancelled = true;
      reading.stop?.();
    }
    reading = null;
  };
  const refresh = () => {
    const c = latestCheckpoint();
    yours.textContent = c ? t('panels.checkpointOption', { name: clipText(c.name, 40) }) : t('panels.checkpointOptionNone');
    yours.disabled = !c;
    forget.hidden = !c;
  };
  // Closing hands the focus back to the select (the panel's buttons disappear with it).
  const close = () => {
    cancelReading();
    panel.hidden = true;
    select.value = previous;
    select.focus({ preventScroll: true });
  };
  const fail = (text) => {
    progress.hidden = true;
    status.textContent = '';
    message.textContent = t('panels.modelStays', { problem: text });
    message.hidden = false;
  };

  /** Reads and checks the files; publishes them unless a newer choice came meanwhile. */
  async function useFiles(files) {
    cancelReading();
    message.hidden = true;
    const weights = files.find((f) => /\.safetensors$/i.test(f.name));
    const folder = files.folder ?? files[0]?.webkitRelativePath?.split('/')[0];
    if (await isHuggingFace(files, lib)) return useReal(files, folder || weights?.name || files[0].name);
    if (!weights) return fail(t('panels.noSafetensors'));
    if (weights.size > limit) {
      return fail(t('panels.weightsFileTooLarge', { name: clipText(weights.name), size: formatBytes(weights.size, locale), limit: formatBytes(limit, locale) }));
    }
    const small = files.filter((f) => /\.json$/i.test(f.name) && f.size > CONFIG_LIMIT);
    if (small.length) return fail(t('panels.jsonTooLarge', { name: clipText(small[0].name), size: formatBytes(small[0].size, locale) }));
    const job = { cancelled: false };
    reading = job;
    progress.hidden = false;
    progress.max = weights.size || 1;
    progress.value = 0;
    status.textContent = t('panels.reading', { name: clipText(weights.name) });
    let bytes;
    let config;
    let vocab;
    try {
      bytes = await readStream(weights.stream(), { job, onRead: (n) => (progress.value = n) });
      const text = (name) => files.find((f) => f.name === name)?.text() ?? null;
      [config, vocab] = await Promise.all([text('config.json'), text('vocab.json')]);
    } catch (err) {
      if (!job.cancelled) fail(t('panels.filesUnreadable', { error: errorText(err, t) }));
      return;
    }
    if (job.cancelled) return; // a newer choice, or Cancel: nothing to say
    reading = null;
    let model;
    try {
      model = lib.CharModel.from_checkpoint(new Uint8Array(bytes), config ?? undefined, vocab ?? undefined);
    } catch (err) {
      return fail(t('panels.libraryProblem', { message: errorText(err, t) }));
    } finally {
      model?.free();
    }
    progress.hidden = true;
    share({ name: folder || weights.name, weights: bytes, config, vocab });
  }

  /**
   * A Hugging Face checkpoint's files: opened in a checkpoint worker (its progress on the panel's
   * bar, Cancel ending it), and shared once it opened; what it cannot open is said here.
   */
  async function useReal(files, name) {
    const checkpoint = realCheckpoint(name, files);
    const job = { cancelled: false };
    reading = job;
    progress.hidden = false;
    progress.max = files.filter((f) => /\.safetensors$/i.test(f.name)).reduce((sum, f) => sum + f.size, 0) || 1;
    progress.value = 0;
    status.textContent = t('panels.reading', { name: clipText(name) });
    let load;
    await new Promise((resolve) => {
      load = openYours(checkpoint, resolve);
      job.stop = load.drop;
      load.c.bars.add(progress);
      if (load.c.state !== 'loading') resolve();
    });
    if (job.cancelled) return;
    reading = null;
    if (load.c.state !== 'ready') {
      load.drop();
      return fail(problemText(load.c.problem, t));
    }
    progress.hidden = true;
    share(checkpoint);
    load.hold();
  }

  /** Shares `checkpoint` with the page and picks it; the panel then says whether a reload keeps it. */
  async function share(checkpoint) {
    // Shared with the page at once; kept for the next visits when the browser allows (a moment later).
    const keeping = publishCheckpoint(checkpoint);
    previous = CHECKPOINT;
    select.value = CHECKPOINT;
    status.textContent = t('panels.keeping');
    onPick(CHECKPOINT);
    const answer = await keeping;
    // A newer choice, Cancel or a forget meanwhile: the panel is theirs now.
    if (reading !== null || panel.hidden || latestCheckpoint() !== checkpoint) return;
    if (answer.kept) close();
    else status.textContent = notKeptNote(answer, t);
  }
  const tryFiles = (files) => useFiles(files).catch((err) => fail(t('panels.filesUnreadable', { error: errorText(err, t) })));

  // The panel opens under the select without taking the focus (arrowing through a closed select
  // fires change at each option); choosing anything else closes it and stops a read.
  select.addEventListener('change', () => {
    if (select.value !== LOAD) {
      cancelReading();
      previous = select.value;
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    message.hidden = true;
    // The checkpoint shared now, if this browser could not keep it: why it will not survive a reload.
    status.textContent = notKeptNote(checkpointKept(), t);
  });
  file.addEventListener('change', () => tryFiles([...file.files]).finally(() => (file.value = '')));
  cancel.addEventListener('click', close);
  forget.addEventListener('click', () => forgetCheckpoint());
  dropZone(panel, (data) => droppedFiles(data).then(tryFiles, (err) => fail(t('panels.folderUnreadable', { error: errorText(err, t) }))));

  const offCheckpoint = onCheckpoint(() => {
    refresh();
    if (reading === null) status.textContent = notKeptNote(checkpointKept(), t); // a forget, say: no stale note
    if (select.value === CHECKPOINT) {
      if (latestCheckpoint()) onPick(CHECKPOINT);
      else {
        select.value = select.options[0].value;
        previous = select.value;
        onPick(select.value);
      }
    } else if (previous === CHECKPOINT && !latestCheckpoint()) {
      // Forgotten while the panel is open over it: the widget goes back to its first model.
      previous = select.options[0].value;
      onPick(previous);
    }
  });
  const off = () => {
    cancelReading();
    offCheckpoint();
  };
  /** Shows `value` in the select (a model the widget shows), if it is there to be chosen. */
  const show = (value) => {
    const option = [...select.options].find((o) => o.value === value && !o.disabled);
    if (option) select.value = previous = value;
  };
  refresh();
  return { panel, off, show };
}

/**
 * Whether the reader's files are a Hugging Face checkpoint (GPT-2, Llama…) rather than TinyGPT's:
 * its config.json says so (the library's config_kind), or there is a tokenizer.json or an index.
 */
async function isHuggingFace(files, lib) {
  if (files.some((f) => f.name === 'tokenizer.json' || f.name === 'model.safetensors.index.json')) return true;
  const config = files.find((f) => f.name === 'config.json');
  if (!config || config.size > CONFIG_LIMIT) return false; // the character model's checks say what is wrong
  return lib.config_kind(await config.text()) === 'checkpoint';
}

/** The files of a drop: the files themselves, and the files of a dropped folder (one level). */
async function droppedFiles(data) {
  const entries = [...(data?.items ?? [])].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  const folders = entries.filter((e) => e.isDirectory);
  if (folders.length === 0) return [...(data?.files ?? [])];
  const files = [];
  files.folder = folders[0].name;
  for (const folder of folders) {
    const children = await new Promise((resolve, reject) => folder.createReader().readEntries(resolve, reject));
    for (const child of children.filter((c) => c.isFile)) files.push(await new Promise((resolve, reject) => child.file(resolve, reject)));
  }
  return files;
}
