// A GPT-2-shaped checkpoint stored in f16, over the 16 MiB a TinyGPT-shaped checkpoint may have,
// built from a seed (nothing large is committed): width 512, 4 blocks of 8 heads, the hub's tensor
// names (no "transformer." prefix), the GPT-2 fixture's tokenizer; and the tblock binary cargo built,
// which inspects the same folder. Shared by Chromium's big-f16-checkpoint.spec.js and Firefox's
// tests/firefox/checkpoint.test.mjs.
//
//   buildF16Folder(dir)   writes config.json, tokenizer.json and model.safetensors (F16) into dir
//   tblock()              the path of target/{debug,release}/tblock
//   SHAPE, F16_TEXT       its shape, and the text both browsers read
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = new URL('../reference/fixtures/checkpoints/', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const F16_TEXT = 'The feed-forward holds two thirds of the weights.';
export const SHAPE = { d: 512, layers: 4, heads: 8, positions: 64, vocab: 384 };

/** Seeded uniform numbers in [-1, 1) (mulberry32). */
function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * 2 - 1;
  };
}

/** IEEE half-precision bits of `x` (round to nearest; the numbers here are small and normal or 0). */
function f16(x) {
  const f = new Float32Array([x]);
  const bits = new Uint32Array(f.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = ((bits >>> 23) & 0xff) - 127 + 15;
  const mant = bits & 0x7fffff;
  if (exp <= 0) return sign; // too small for a normal half: 0
  const half = sign | (exp << 10) | (mant >>> 13);
  return half + ((mant >>> 12) & 1); // round half up on the dropped bits
}

/** The folder (config.json, tokenizer.json, model.safetensors in F16) written into `dir` (made if need be). */
export function buildF16Folder(dir) {
  const { d, layers, heads, positions, vocab } = SHAPE;
  mkdirSync(dir, { recursive: true });
  const gpt2 = JSON.parse(readFileSync(new URL('gpt2/config.json', FIXTURES), 'utf8'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...gpt2, n_embd: d, n_layer: layers, n_head: heads, n_positions: positions, vocab_size: vocab, dtype: 'float16' }));
  copyFileSync(fileURLToPath(new URL('gpt2/tokenizer.json', FIXTURES)), join(dir, 'tokenizer.json'));
  const tensors = [
    ['wte.weight', [vocab, d], 0.5],
    ['wpe.weight', [positions, d], 0.2],
  ];
  for (let i = 0; i < layers; i++) {
    tensors.push(
      [`h.${i}.ln_1.weight`, [d], 'gain'],
      [`h.${i}.ln_1.bias`, [d], 0.05],
      [`h.${i}.attn.c_attn.weight`, [d, 3 * d], 0.12],
      [`h.${i}.attn.c_attn.bias`, [3 * d], 0.05],
      [`h.${i}.attn.c_proj.weight`, [d, d], 0.05],
      [`h.${i}.attn.c_proj.bias`, [d], 0.05],
      [`h.${i}.ln_2.weight`, [d], 'gain'],
      [`h.${i}.ln_2.bias`, [d], 0.05],
      [`h.${i}.mlp.c_fc.weight`, [d, 4 * d], 0.05],
      [`h.${i}.mlp.c_fc.bias`, [4 * d], 0.05],
      [`h.${i}.mlp.c_proj.weight`, [4 * d, d], 0.03],
      [`h.${i}.mlp.c_proj.bias`, [d], 0.05],
    );
  }
  tensors.push(['ln_f.weight', [d], 'gain'], ['ln_f.bias', [d], 0.05]);
  const random = uniform(35);
  const header = { __metadata__: { format: 'pt' } };
  const parts = [];
  let offset = 0;
  for (const [name, shape, scale] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Uint16Array(n);
    for (let k = 0; k < n; k++) data[k] = f16(scale === 'gain' ? 1 + 0.1 * random() : scale * random());
    header[name] = { dtype: 'F16', shape, data_offsets: [offset, offset + 2 * n] };
    parts.push(Buffer.from(data.buffer));
    offset += 2 * n;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(json.length));
  writeFileSync(join(dir, 'model.safetensors'), Buffer.concat([size, Buffer.from(json), ...parts]));
  return dir;
}

/** The tblock binary cargo built (make test's Rust stage builds the debug one). */
export function tblock() {
  const found = ['debug', 'release'].map((p) => join(ROOT, 'target', p, 'tblock')).find((p) => existsSync(p));
  if (!found) throw new Error('no tblock binary under target/: run `cargo build --bin tblock` (make test builds it in its Rust stage)');
  return found;
}

