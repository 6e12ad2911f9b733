// The French lesson is written from the English one and its prose file (scripts/lesson-edition.mjs):
// the page served at /fr/ is exactly what they make, every run of English prose has its French, and
// the prose file translates nothing the English page no longer has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LESSON_EDITIONS, edition, editions, proseOf } from '../../scripts/lesson-edition.mjs';
import { WWW } from '../../scripts/module-graph.mjs';

test('www/fr/index.html is what www/index.html and www/fr/prose.json make, and the prose file has no stale entry', () => {
  for (const ed of editions()) {
    assert.ok(readFileSync(`${WWW}${ed.page}`, 'utf8') === ed.html, `www/${ed.page} is stale: run node scripts/lesson-edition.mjs --write`);
    assert.deepEqual(ed.unused, [], `www/${ed.prose} translates English the page no longer has`);
  }
  assert.deepEqual(LESSON_EDITIONS.map((e) => e.page), ['fr/index.html']);
});

const PAGE = `<!doctype html><html lang="en"><head><title>The block</title>
<link rel="stylesheet" href="styles.css"><link rel="alternate" hreflang="fr" href="fr/"></head>
<body><main><h1>The block</h1>
<p>A block has
  <tb-number value="total_params"></tb-number> parameters; see <a href="gallery/">the gallery</a>.</p>
<tb-anatomy model="gpt2-small" aria-label="The anatomy"></tb-anatomy><p>2 × 6 = 12</p>
<script type="module" src="src/main.js"></script><img src="https://example.org/x.png" alt="A diagram"></main></body></html>`;

const PROSE = {
  runs: [
    { en: 'The block', fr: 'Le bloc' },
    { en: 'A block has <tb-number value="total_params"></tb-number> parameters; see <a href="gallery/">the gallery</a>.', fr: 'Un bloc a <tb-number value="total_params"></tb-number> paramètres ; voir <a href="../gallery/">la galerie</a>.' },
  ],
  attributes: [
    { name: 'hreflang', en: 'fr', fr: 'en' },
    { name: 'href', en: 'fr/', fr: '../' },
    { name: 'aria-label', en: 'The anatomy', fr: 'L’anatomie' },
    { name: 'alt', en: 'A diagram', fr: 'Un schéma' },
  ],
};
const FR = { lang: 'fr', up: '../' };

test('an edition swaps the prose, moves relative URLs a folder up and keeps the structure', () => {
  const fr = edition(PAGE, PROSE, FR);
  assert.match(fr, /<html lang="fr">/);
  assert.match(fr, /<title>Le bloc<\/title>/);
  assert.match(fr, /<h1>Le bloc<\/h1>/);
  assert.match(fr, /<p>Un bloc a <tb-number value="total_params"><\/tb-number> paramètres ; voir <a href="..\/gallery\/">la galerie<\/a>.<\/p>/);
  assert.match(fr, /href="..\/styles.css"/);
  assert.match(fr, /<link rel="alternate" hreflang="en" href="..\/">/);
  assert.match(fr, /<tb-anatomy model="gpt2-small" aria-label="L’anatomie">/);
  assert.match(fr, /src="..\/src\/main.js"/);
  assert.match(fr, /src="https:\/\/example.org\/x.png" alt="Un schéma"/);
  // A run with no letter (a formula) is the same in every language.
  assert.match(fr, /<p>2 × 6 = 12<\/p>/);
  assert.equal(proseOf(fr).length, proseOf(PAGE).length);
});

test('a paragraph wrapped anew keeps its translation; a changed sentence is refused, named', () => {
  const rewrapped = PAGE.replace('A block has\n  <tb-number', 'A block\n     has <tb-number');
  assert.equal(edition(rewrapped, PROSE, FR), edition(PAGE, PROSE, FR));
  const changed = PAGE.replace('<h1>The block</h1>', '<h1>The whole block</h1>');
  assert.throws(() => edition(changed, PROSE, FR), /no translation for 1 run\(s\)[^]*The whole block/);
  const relabelled = PAGE.replace('aria-label="The anatomy"', 'aria-label="The parts"');
  assert.throws(() => edition(relabelled, PROSE, FR), /aria-label="The parts"/);
});
