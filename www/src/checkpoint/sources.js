// Where the checkpoint worker reads a Hugging Face checkpoint's files from: a folder on the page's
// own site (weights-src), or the files the reader dropped or picked (File objects, which a worker
// receives as they are and reads from the disk). Both give the same two things, so worker.js reads
// one way whatever the source:
//
//   const source = siteSource(url)      // url: the folder ending in /, or its model.safetensors.index.json
//   const source = fileSource(files)    // files: File[] (the folder's files, by their names)
//   await source.small('config.json')   // Uint8Array of a small file beside the weights (at most TEXT_LIMIT)
//   const { parts, total } = await source.weights(weightFiles)
//     weightFiles: the engine's PageCheckpoint.weight_files (the build the worker started: each has
//     its own glue), which reads an index's shard names
//     parts: [{ name, open() }], the weight files in order; total: their bytes when known before
//     any is read (the index's total_size, or the files' sizes), else null
//     await part.open() -> { length, version?, body, cancel() }   length: 0 when unknown; version: the
//       site's ETag or Last-Modified for it, or null; body: a ReadableStream
//
// What is missing or too large is refused with the page's own sentence (problems.js: said).

import { said } from './problems.js';
import { answerLength, answerVersion } from './answer.js';

/** The most bytes a config.json or tokenizer.json may have (Llama 3's tokenizer.json is 9 MB). */
export const TEXT_LIMIT = 64 << 20;

const INDEX = 'model.safetensors.index.json';
const SINGLE = 'model.safetensors';

const tooLarge = (name, bytes) => said('checkpoint.fileTooLarge', { name, size: { bytes }, limit: { bytes: TEXT_LIMIT } });
const answered = (name, status) => said('panels.labelled', { label: name, error: { key: 'panels.serverAnswered', values: { status: String(status) } } });

/** A fetch from the page's own site. */
const get = (url) => fetch(url, { mode: 'same-origin', credentials: 'same-origin' });

/** A response from the page's own site, refused with the file's name unless it is there. */
async function fetched(url, name) {
  const response = await get(url);
  if (!response.ok) throw answered(name, response.status);
  return response;
}

/** A response as a weight file's part. */
function partOf(response) {
  return { length: answerLength(response), version: answerVersion(response), body: response.body, cancel: () => response.body?.cancel() };
}

/** The checkpoint in the folder at `url` on the page's own site (see above). */
export function siteSource(url) {
  const base = new URL('./', url);
  const sharded = new URL(url).pathname.endsWith(`/${INDEX}`);
  return {
    async small(name) {
      const response = await fetched(new URL(name, base), name);
      const length = Number(response.headers.get('content-length')) || 0;
      if (length > TEXT_LIMIT) {
        response.body?.cancel();
        throw tooLarge(name, length);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > TEXT_LIMIT) throw tooLarge(name, bytes.length);
      return bytes;
    },
    // model.safetensors, or when the folder has none (404), or it was named by its index, the
    // shards the index names, with its total size.
    async weights(weightFiles) {
      const part = (name) => ({ name, open: async () => partOf(await fetched(new URL(name, base), name)) });
      if (!sharded) {
        const single = await get(new URL(SINGLE, base));
        if (single.ok) return { parts: [{ name: SINGLE, open: async () => partOf(single) }], total: null };
        await single.arrayBuffer().catch(() => {}); // the server's page for the error, read to its end
        if (single.status !== 404) throw answered(SINGLE, single.status);
      }
      const index = await get(new URL(INDEX, base));
      if (index.status === 404 && !sharded) throw said('checkpoint.noWeights');
      if (!index.ok) throw answered(INDEX, index.status);
      const { files, total_size: total } = weightFiles(await index.text());
      return { parts: files.map(part), total: total ?? null };
    },
  };
}

/** The checkpoint in the reader's files (see above): a file is found by its name. */
export function fileSource(files) {
  const byName = new Map(files.map((f) => [f.name, f]));
  const file = (name) => {
    const f = byName.get(name);
    if (!f) throw said('checkpoint.filesLack', { name });
    return f;
  };
  const small = async (name) => {
    const f = file(name);
    if (f.size > TEXT_LIMIT) throw tooLarge(name, f.size);
    return new Uint8Array(await f.arrayBuffer());
  };
  return {
    small,
    async weights(weightFiles) {
      let names = [SINGLE];
      if (!byName.has(SINGLE)) {
        if (!byName.has(INDEX)) throw said('checkpoint.noWeights');
        names = weightFiles(new TextDecoder().decode(await small(INDEX))).files;
      }
      const parts = names.map((name) => {
        const f = file(name); // every shard there before any is read
        return { name, size: f.size, open: async () => ({ length: f.size, body: f.stream(), cancel() {} }) };
      });
      return { parts, total: parts.reduce((sum, p) => sum + p.size, 0) };
    },
  };
}
