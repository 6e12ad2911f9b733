// Hostile input inside the panels a widget keeps closed until the reader opens one: "Your model…"
// (a config.json pasted into the switcher of an analytic widget), in each language. Each value is
// pasted and shown; after each: the panel says what is wrong and what is allowed, briefly, in the
// page's language (or a library message in English, whole); nothing ran or was made from the value;
// the widget's figures are those it showed before (the model shown stays).
import { expect, test } from '@playwright/test';
import { recordProblems } from './helpers.js';
import { HOSTILE_VALUES, SAYS_WHAT_IS_ALLOWED } from './hostile-sweep.js';

/** Configs a reader could paste: not JSON, JSON of another shape, an unsupported family, bad fields. */
const HOSTILE_CONFIGS = [
  ...HOSTILE_VALUES.filter((v) => v.length < 1000),
  '[1, 2, 3]',
  '{}',
  '{"model_type": "bert", "hidden_size": 768}',
  '{"model_type": "gpt2", "n_embd": -1, "n_layer": 12, "n_head": 12}',
  '{"model_type": "llama", "hidden_size": 1e308}',
  '{"model_type": "<img src=x onerror=\\"window.__pwned = 1\\">"}',
];
const LONGEST_MESSAGE = 600;

const page = (lang) => `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>panels under hostile input</title>
<link rel="stylesheet" href="/styles.css">
<script type="module" src="/src/elements/index.js"></script>
</head><body><main style="max-width: 800px"><tb-memory model="gpt2-small" batch="1" seq-len="8"></tb-memory></main></body></html>`;

for (const lang of Object.keys(SAYS_WHAT_IS_ALLOWED)) {
  test(`the "Your model" panel under hostile configs (lang=${lang})`, async ({ page: p }) => {
    test.setTimeout(90_000);
    const problems = recordProblems(p);
    await p.route('**/sweep/panels.html', (route) => route.fulfill({ contentType: 'text/html', body: page(lang) }));
    await p.goto('/sweep/panels.html');
    const w = p.locator('tb-memory');
    await p.evaluate(() => document.querySelector('tb-memory').rendered);
    const figures = () => w.locator('table, .result, figure').first().textContent();
    const before = await figures();
    await w.locator('select[id$="-model"]').selectOption('(load)');
    const panel = w.locator('.your-model');
    await expect(panel).toBeVisible();
    for (const config of HOSTILE_CONFIGS) {
      const where = `config ${JSON.stringify(config.slice(0, 40))}`;
      await panel.locator('textarea').fill(config);
      await panel.locator('button.primary').click();
      const message = panel.locator('.error');
      await expect(message, where).toBeVisible();
      const text = (await message.textContent()).replace(/\s+/g, ' ').trim();
      expect(text.length, `${where}: ${text}`).toBeLessThanOrEqual(LONGEST_MESSAGE);
      expect(text, `${where}: says what is allowed`).toMatch(SAYS_WHAT_IS_ALLOWED[lang]);
      expect(await p.evaluate(() => (window.__pwned ?? 0) + document.querySelector('tb-memory').shadowRoot.querySelectorAll('img[src="x"], script').length), where).toBe(0);
      expect(await figures(), `${where}: the model shown stays`).toBe(before);
    }
    expect(problems).toEqual([]);
  });
}
