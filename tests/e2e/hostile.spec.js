// Hostile input, everywhere: every value of HOSTILE_VALUES (empty, blank, negative, zero, 1e308, NaN,
// Infinity, a 21-digit integer, fractions, unicode, markup with an onerror, 10,000 characters) set on
// every observed attribute of every element, and typed into every field of every widget, one at a
// time. After each: no uncaught error and no console error, no script ran and no element was made
// from the value, any message is short and says what is allowed, the widget stays inside its column,
// and once the sane value is back the widget shows exactly what it showed before. The sweep runs in
// English, French and Simplified Chinese (the page's lang): a message says what is allowed in the
// reader's language (or, for a library message a catalog cannot word whole, in English).

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { recordProblems } from './helpers.js';
import { HOSTILE_VALUES, SAYS_WHAT_IS_ALLOWED, sweepInPage } from './hostile-sweep.js';

// One widget per page, set up as an author would (tb-number and tb-example need a name of what to show).
const WIDGETS = {
  // TinyGPT, so the live tensors' text field is swept too.
  'tb-anatomy': '<tb-anatomy model="tiny-gpt" seq-len="8"></tb-anatomy>',
  'tb-param-table': '<tb-param-table model="llama3-8b"></tb-param-table>',
  'tb-cost-chart': '<tb-cost-chart model="gpt2-small" seq-len="1024"></tb-cost-chart>',
  'tb-memory': '<tb-memory model="llama3-8b" batch="1" seq-len="8"></tb-memory>',
  'tb-training-cost': '<tb-training-cost></tb-training-cost>',
  'tb-example': '<tb-example name="flops"></tb-example>',
  'tb-moe': '<tb-moe experts="6" k="3" seed="7"></tb-moe>',
  'tb-masks': '<tb-masks tokens="5" seed="3"></tb-masks>',
  'tb-tiny-gpt': '<tb-tiny-gpt seed="7" text="Attention mixes positions."></tb-tiny-gpt>',
  'tb-attention': '<tb-attention model="six-blocks" text="heads look"></tb-attention>',
  'tb-number': '<tb-number model="gpt2-small" value="total_params"></tb-number>',
  'tb-train': '<tb-train steps="300" warmup="100"></tb-train>',
  'tb-ablation': '<tb-ablation model="shipped" mode="removed"></tb-ablation>',
  'tb-stream': '<tb-stream></tb-stream>',
  'tb-norm-race': '<tb-norm-race seed="1"></tb-norm-race>',
  'tb-depth-latency': '<tb-depth-latency></tb-depth-latency>',
};

const LANGUAGES = Object.keys(SAYS_WHAT_IS_ALLOWED);
const LONGEST_MESSAGE = 300; // characters shown
const LONGEST_WHOLE = 600; // characters of a shortened message's whole (its tooltip)
const COLUMN = 800; // px: the test page's column; a message may not widen the widget past it

const page = (tag, lang) => `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${tag} under hostile input</title>
<link rel="stylesheet" href="/styles.css">
<script type="module" src="/src/elements/index.js"></script>
</head><body><main style="max-width: ${COLUMN}px">${WIDGETS[tag]}</main></body></html>`;

// Every element the library defines (www/src/elements/index.js names each) is swept: a new element
// gets a line in WIDGETS or fails this.
test('the sweep covers every element', () => {
  const index = readFileSync(new URL('../../www/src/elements/index.js', import.meta.url), 'utf8');
  const defined = [...index.matchAll(/\/\/ <(tb-[a-z-]+)/g)].map((m) => m[1]);
  expect(defined.length).toBeGreaterThan(10);
  expect(Object.keys(WIDGETS).sort()).toEqual(defined.sort());
});

for (const lang of LANGUAGES) {
  for (const tag of Object.keys(WIDGETS)) {
    for (const what of ['attributes', 'fields']) {
      const name = `${tag}: hostile values on every ${what === 'fields' ? 'field' : 'observed attribute'}${lang === 'en' ? '' : ` (lang=${lang})`}`;
      test(name, async ({ page: p }, testInfo) => {
        test.setTimeout(120_000);
        const problems = recordProblems(p);
        await p.route(`**/sweep/${tag}.html`, (route) => route.fulfill({ contentType: 'text/html', body: page(tag, lang) }));
        await p.setViewportSize({ width: 1000, height: 900 });
        await p.goto(`/sweep/${tag}.html`);
        const result = await p.evaluate(sweepInPage, { selector: tag, values: HOSTILE_VALUES, what });
        await testInfo.attach('sweep.json', { body: JSON.stringify(result, null, 1), contentType: 'application/json' });

        expect(problems.map((p) => (p.length > 300 ? `${p.slice(0, 300)}…` : p)), 'no uncaught error, console error or failed request').toEqual([]);
        for (const r of result.records) {
          const where = `${r.target} = ${JSON.stringify(r.value)}`;
          expect(r.injected, `${where}: no script ran, no element made from the value`).toBe(0);
          expect(r.longest, `${where}: messages at most ${LONGEST_MESSAGE} characters: ${r.messages.join(' / ')}`).toBeLessThanOrEqual(LONGEST_MESSAGE);
          expect(r.longestWhole, `${where}: whole messages at most ${LONGEST_WHOLE} characters`).toBeLessThanOrEqual(LONGEST_WHOLE);
          for (const m of r.messages) expect(m, `${where}: the message says what is allowed`).toMatch(SAYS_WHAT_IS_ALLOWED[lang]);
          expect(r.focusKept, `${where}: the keyboard focus stays on the field it was on`).toBe(true);
          expect(r.width, `${where}: the widget stays in its column`).toBeLessThanOrEqual(COLUMN);
          expect(r.restored, `${where}: back to the sane value, the widget shows what it showed before\nbefore: ${r.before}\nafter:  ${r.after}`).toBe(true);
        }
      });
    }
  }
}
