// A GPT-2-shaped checkpoint stored in f16, over the 16 MiB a TinyGPT-shaped checkpoint may have,
// built here from a seed (f16-folder.js; nothing large is committed). <tb-attention> opens it in
// the checkpoint worker, its 16-bit numbers kept 16-bit, and every head's table equals what
// `tblock inspect` prints for the same folder and text (the binary cargo built: make test builds it
// in its Rust stage).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { coursePage } from './checkpoint-pages.js';
import { F16_TEXT, SHAPE, buildF16Folder, tblock } from './f16-folder.js';

test.describe.configure({ timeout: 120_000 });

let dir;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tb-f16-'));
  buildF16Folder(dir);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a GPT-2-shaped f16 checkpoint over 16 MiB: every head as `tblock inspect` prints it for the same folder', async ({ page }) => {
  const weights = statSync(join(dir, 'model.safetensors')).size;
  expect(weights).toBeGreaterThan(16 * 1024 * 1024);
  const want = JSON.parse(execFileSync(tblock(), ['inspect', '--weights', dir, '--text', F16_TEXT], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  await page.context().route('**/course/models/big/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (!['config.json', 'tokenizer.json', 'model.safetensors'].includes(file)) return route.fulfill({ status: 404, body: 'not here' });
    route.fulfill({ body: readFileSync(join(dir, file)) });
  });
  const problems = await coursePage(page, `<tb-attention weights-src="/course/models/big/" text="${F16_TEXT}"></tb-attention>`);
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
