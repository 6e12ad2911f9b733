// The checkpoint worker: a Hugging Face checkpoint (GPT-2, Llama, Mistral, Qwen2) in its own wasm
// instance (www/pkg/checkpoint*, with the checkpoint's tokenizer), so the lesson's widgets keep
// theirs and the page stays live while it loads and runs. One worker per checkpoint, started by
// client.js; cancelling a load ends the worker (and frees what it held).
//
// In:  { type: 'open', url }                 url: the folder, on the page's own site, ending in /;
//                                            or its model.safetensors.index.json (sharded)
//      { type: 'inspect', id, text }
// Out: { type: 'progress', read, total }     bytes of weights so far, of the total (0: unknown)
//      { type: 'opened', info, memory }      PageCheckpoint.info(); memory: the instance's bytes
//      { type: 'inspected', id, result }     PageCheckpoint.inspect(text), its arrays transferred
//      { type: 'failed', id?, problem }      problem: { message, tb?, say? } (problems.js)
//
// Opening: config.json and tokenizer.json (the family, the shape and the tokenizer checked), then
// model.safetensors, or when there is none the shards model.safetensors.index.json names (the
// size checked against the page's limit first: the index's total, or each answer's length before
// its body is read).
//
// The weights arrive a piece at a time into the instance's memory (PageCheckpoint.push): the
// pieces are not gathered anywhere else, so the page holds the weights once.

import init, { PageCheckpoint } from '../../pkg/checkpoint.js';
import { problemData, said } from './problems.js';

/** The most bytes a config.json or tokenizer.json may have (Llama 3's tokenizer.json is 9 MB). */
const TEXT_LIMIT = 64 << 20;
/** Progress is posted at most this often, in ms. */
const PROGRESS_EVERY = 50;

let checkpoint = null;
let wasm = null; // the instance's exports (its memory)
const post = (message, transfer = []) => self.postMessage(message, transfer);

/** A fetch from the page's own site. */
const get = (url) => fetch(url, { mode: 'same-origin', credentials: 'same-origin' });

/** A response from the page's own site, refused with the file's name unless it is there. */
async function fetched(url, name) {
  const response = await get(url);
  if (!response.ok) throw said('panels.labelled', { label: name, error: { key: 'panels.serverAnswered', values: { status: String(response.status) } } });
  return response;
}

/** The bytes of a small file beside the weights. */
async function small(base, name) {
  const response = await fetched(new URL(name, base), name);
  const length = Number(response.headers.get('content-length')) || 0;
  const tooLarge = (n) => said('checkpoint.fileTooLarge', { name, size: { bytes: n }, limit: { bytes: TEXT_LIMIT } });
  if (length > TEXT_LIMIT) {
    response.body?.cancel();
    throw tooLarge(length);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > TEXT_LIMIT) throw said('checkpoint.fileTooLarge', { name, size: { bytes: bytes.length }, limit: { bytes: TEXT_LIMIT } });
  return bytes;
}

/**
 * The weights' files and the first one's response: model.safetensors, or when the folder has none
 * (404), or it was opened by its index (`sharded`), the shards model.safetensors.index.json names,
 * with its total size.
 */
async function weightFiles(base, sharded) {
  if (!sharded) {
    const single = await get(new URL('model.safetensors', base));
    if (single.ok) return { files: ['model.safetensors'], first: single, indexTotal: null };
    await single.arrayBuffer().catch(() => {}); // the server's page for the error, read to its end
    if (single.status !== 404) throw said('panels.labelled', { label: 'model.safetensors', error: { key: 'panels.serverAnswered', values: { status: String(single.status) } } });
  }
  const index = await get(new URL('model.safetensors.index.json', base));
  if (index.status === 404 && !sharded) throw said('checkpoint.noWeights');
  if (!index.ok) throw said('panels.labelled', { label: 'model.safetensors.index.json', error: { key: 'panels.serverAnswered', values: { status: String(index.status) } } });
  const { files, total_size: indexTotal } = PageCheckpoint.weight_files(await index.text());
  return { files, first: null, indexTotal };
}

async function open(url) {
  const base = new URL('./', url);
  const sharded = new URL(url).pathname.endsWith('/model.safetensors.index.json');
  wasm = await init();
  const text = (bytes) => new TextDecoder().decode(bytes);
  const [config, tokenizer] = await Promise.all([small(base, 'config.json'), small(base, 'tokenizer.json')]);
  // The family, the shape and the tokenizer are checked before a byte of weights is fetched.
  checkpoint = new PageCheckpoint(text(config), tokenizer);
  const { files, first, indexTotal } = await weightFiles(base, sharded);
  if (indexTotal) PageCheckpoint.check_size(indexTotal);
  let total = indexTotal ?? 0;
  let read = 0;
  let posted = 0;
  for (const [i, name] of files.entries()) {
    const response = i === 0 && first ? first : await fetched(new URL(name, base), name);
    // A compressed answer's length is not the file's.
    const length = response.headers.get('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0;
    if (!indexTotal && length) {
      // Refused on its length, before its body is read.
      try {
        PageCheckpoint.check_size(read + length);
      } catch (err) {
        response.body?.cancel();
        throw err;
      }
      total = read + length;
    }
    checkpoint.begin(name, length || undefined);
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      checkpoint.push(value);
      read += value.length;
      const now = performance.now();
      if (now - posted > PROGRESS_EVERY) {
        posted = now;
        post({ type: 'progress', read, total: Math.max(total, read) });
      }
    }
    checkpoint.end();
  }
  post({ type: 'progress', read, total: read });
  checkpoint.open();
  post({ type: 'opened', info: checkpoint.info(), memory: wasm.memory.buffer.byteLength });
}

function inspect({ id, text }) {
  const result = checkpoint.inspect(text, 10);
  post({ type: 'inspected', id, result }, result.attentions.map((a) => a.buffer));
}

self.onmessage = async ({ data }) => {
  try {
    if (data?.type === 'open') await open(data.url);
    else if (data?.type === 'inspect') inspect(data);
  } catch (err) {
    if (data?.type === 'open') {
      checkpoint?.free();
      checkpoint = null;
    }
    post({ type: 'failed', id: data?.id, problem: problemData(err) });
  }
};
