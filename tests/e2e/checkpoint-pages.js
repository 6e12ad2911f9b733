// What the specs of Hugging Face checkpoints in the page share (real-checkpoint.spec.js: weights-src;
// your-real-checkpoint.spec.js: the reader's dropped folder): the committed fixture folders, a course
// page that embeds the widgets, and the check of every head's table against transformers' figures.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { openPage, waitForWidgets } from './helpers.js';

/** The fixture folders (gpt2: f32 in one file; llama: bf16 in three shards), each with inspect.json. */
export const FIXTURES = new URL('../reference/fixtures/checkpoints/', import.meta.url);

/** What transformers computed for fixture folder `name` (tests/reference/checkpoint_inspect.py). */
export const inspected = (name) => JSON.parse(readFileSync(new URL(`${name}/inspect.json`, FIXTURES), 'utf8'));

/** The float64 reference's figures for fixture folder `name` (tests/reference/make_checkpoints.py): the
 * experiments on eval.txt, the lesson's held-out text, at `context` positions. */
export const expected = (name) => JSON.parse(readFileSync(new URL(`${name}/expected.json`, FIXTURES), 'utf8'));

/** Serves fixture folder `name` under /course/models/`as`/ (a file it lacks answers 404). */
export async function serveFolder(page, name, as = name, { omit = [] } = {}) {
  await page.context().route(`**/course/models/${as}/*`, (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    let body;
    try {
      if (omit.includes(file)) throw new Error('omitted');
      body = readFileSync(new URL(`${name}/${file}`, FIXTURES));
    } catch {
      return route.fulfill({ status: 404, body: 'not here' });
    }
    route.fulfill({ body, contentType: file.endsWith('.json') ? 'application/json' : 'application/octet-stream' });
  });
}

/**
 * A course page holding `html`, served at /course/page.html, opened; the 404s a folder is probed
 * with are expected. `isolated`: sent with COOP and COEP, as scripts/serve.mjs sends its pages (a
 * checkpoint then runs on threads); else without, as a host that sends neither.
 */
export async function coursePage(page, html, { isolated = false } = {}) {
  await page.context().route('**/course/page.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {},
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="/src/elements/index.js"></script></head><body>${html}</body></html>`,
    }),
  );
  const problems = await openPage(page, '/course/page.html');
  await waitForWidgets(page);
  return problems;
}

/** The cells of a table as numbers (an empty cell: null). */
function tableNumbers(table) {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent)))));
}

/**
 * `att` (a <tb-attention> showing a real checkpoint) has transformers' weights (`expected`:
 * inspected()) in every head's table of every block: the causal triangle empty, each weight within
 * half a unit of its third decimal and 1e-4 besides.
 */
export async function expectHeads(att, expected) {
  const n = expected.ids.length;
  const heads = expected.attentions[0].length;
  await expect(att.locator('figure.head-map')).toHaveCount(heads);
  await att.locator('details.tables summary').click();
  for (let b = 0; b < expected.attentions.length; b++) {
    await att.getByLabel('Block', { exact: true }).selectOption(String(b));
    await expect(att.locator('table.weights-table caption')).toHaveText(Array.from({ length: heads }, (_, hd) => `Block ${b}, head ${hd}`));
    for (let hd = 0; hd < heads; hd++) {
      const rows = await tableNumbers(att.locator(`table.weights-table[data-head="${hd}"]`));
      expect(rows).toHaveLength(n);
      rows.forEach((cells, q) =>
        cells.forEach((got, k) => {
          if (k > q) return expect(got, `block ${b}, head ${hd}: key ${k + 1} is after query ${q + 1}`).toBeNull();
          expect(Math.abs(got - expected.attentions[b][hd][q][k]), `block ${b}, head ${hd}, query ${q + 1}, key ${k + 1}`).toBeLessThanOrEqual(6e-4);
        }),
      );
    }
  }
}
