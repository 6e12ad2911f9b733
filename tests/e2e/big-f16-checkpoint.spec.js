// A GPT-2-shaped checkpoint stored in f16, over the 16 MiB a TinyGPT-shaped checkpoint may have,
// built here from a seed (nothing large is committed): width 512, 4 blocks of 8 heads, the hub's
// tensor names (no "transformer." prefix), the GPT-2 fixture's tokenizer. <tb-attention> opens it in
// the checkpoint worker, its 16-bit numbers kept 16-bit, and every head's table equals what
// `tblock inspect` prints for the same folder and text (the binary cargo built: make test builds it
// in its Rust stage).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { FIXTURES, coursePage } from './checkpoint-pages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEXT = 'The feed-forward holds two thirds of the weights.';
const SHAPE = { d: 512, layers: 4, heads: 8, positions: 64, vocab: 384 };

test.describe.configure({ timeout: 120_000 });

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

/** The folder (config.json, tokenizer.json, model.safetensors in F16) in a new temporary directory. */
function buildFolder() {
  const { d, layers, heads, positions, vocab } = SHAPE;
  const dir = mkdtempSync(join(tmpdir(), 'tb-f16-'));
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
function tblock() {
  const found = ['debug', 'release'].map((p) => join(ROOT, 'target', p, 'tblock')).find((p) => existsSync(p));
  if (!found) throw new Error('no tblock binary under target/: run `cargo build --bin tblock` (make test builds it in its Rust stage)');
  return found;
}

let dir;
test.beforeAll(() => {
  dir = buildFolder();
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a GPT-2-shaped f16 checkpoint over 16 MiB: every head as `tblock inspect` prints it for the same folder', async ({ page }) => {
  const weights = statSync(join(dir, 'model.safetensors')).size;
  expect(weights).toBeGreaterThan(16 * 1024 * 1024);
  const want = JSON.parse(execFileSync(tblock(), ['inspect', '--weights', dir, '--text', TEXT], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  await page.context().route('**/course/models/big/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (!['config.json', 'tokenizer.json', 'model.safetensors'].includes(file)) return route.fulfill({ status: 404, body: 'not here' });
    route.fulfill({ body: readFileSync(join(dir, file)) });
  });
  const problems = await coursePage(page, `<tb-attention weights-src="/course/models/big/" text="${TEXT}"></tb-attention>`);
  const att = page.locator('tb-attention');
  const n = want.ids.length;
  await expect(att.locator('.pieces li')).toHaveCount(n, { timeout: 60_000 });
  await expect(att.locator('.model-note')).toContainText('stored as f16');
  await expect(att.locator('figure.head-map')).toHaveCount(SHAPE.heads);
  await att.locator('details.tables summary').click();
  for (const b of [0, SHAPE.layers - 1]) {
    await att.getByLabel('Block', { exact: true }).selectOption(String(b));
    await expect(att.locator('table.weights-table caption').first()).toHaveText(`Block ${b}, head 0`);
    for (let hd = 0; hd < SHAPE.heads; hd++) {
      const rows = await att
        .locator(`table.weights-table[data-head="${hd}"] tbody tr`)
        .evaluateAll((trs) => trs.map((r) => [...r.cells].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent)))));
      expect(rows).toHaveLength(n);
      rows.forEach((cells, q) =>
        cells.forEach((got, k) => {
          if (k > q) return expect(got).toBeNull();
          expect(Math.abs(got - want.attentions[b][hd][q][k]), `block ${b}, head ${hd}, query ${q + 1}, key ${k + 1}`).toBeLessThanOrEqual(6e-4);
        }),
      );
    }
  }
  // The likeliest next token is tblock's too.
  const first = await att.locator('.next li').first().textContent();
  expect(Math.abs(Number(first.split(' ').at(-1)) - want.next[0].probability)).toBeLessThanOrEqual(6e-4);
  expect(problems.filter((p) => !/HTTP 404: /.test(p))).toEqual([]);
});
