// The widgets that ask for the whole facade are named in facade-needs.js (WHOLE_FACADE_WIDGETS), so
// that a widget that only reads TinyGPT takes the whole facade too on their page and TinyGPT is never
// fetched twice, and so that the folder's autoloader can ask for a page's build before the widgets'
// modules arrive. This keeps that list and the element classes' own `needs` agreeing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scanElements } from '../../scripts/dist/elements.mjs';
import { WHOLE_FACADE_WIDGETS, facadeFor, pageFacades } from '../../www/src/facade-needs.js';
import { SOURCES, sourceNeedsModel } from '../../www/src/lesson-values.js';
import { library } from '../../www/src/wasm.js';

const listed = WHOLE_FACADE_WIDGETS.split(',').map((s) => s.trim());

test('every widget that asks for the whole facade is named, and none other', () => {
  const elements = scanElements();
  assert.ok(elements.length >= 16);
  let whole = 0;
  for (const { tag, file, need } of elements) {
    const text = readFileSync(file, 'utf8');
    const byAttributes = /\n {2}needs\(\) \{[^}]*'full'/.test(text);
    const bare = listed.includes(tag);
    const conditional = listed.filter((s) => s.startsWith(`${tag}[`)).length;
    assert.ok(['analytic', 'model', 'full'].includes(need), `${tag}: needs '${need}'`);
    if (need === 'full') assert.ok(bare, `${tag} needs the whole facade: name it in WHOLE_FACADE_WIDGETS`);
    else if (byAttributes) assert.ok(conditional && !bare, `${tag} needs the whole facade by its attributes: name it with them`);
    else assert.ok(!bare && !conditional, `${tag} does not need the whole facade: WHOLE_FACADE_WIDGETS names it`);
    whole += (bare ? 1 : 0) + conditional;
  }
  assert.equal(whole, listed.length, 'WHOLE_FACADE_WIDGETS names a tag that is not an element');
});

test('a number asks for the whole facade exactly where its source runs TinyGPT', () => {
  const named = listed.map((s) => /^tb-number\[source="([^"]+)"\]$/.exec(s)?.[1]).filter(Boolean);
  assert.deepEqual(named.sort(), Object.keys(SOURCES).filter(sourceNeedsModel).sort());
});

test('a widget that reads TinyGPT takes the whole facade where one is coming, no other need does', () => {
  const page = (whole) => ({ querySelector: (sel) => (sel === WHOLE_FACADE_WIDGETS && whole ? {} : null) });
  assert.equal(facadeFor('model', page(true)), 'full');
  assert.equal(facadeFor('model', page(false)), 'model');
  assert.equal(facadeFor('analytic', page(true)), 'analytic');
  assert.equal(facadeFor('full', page(false)), 'full');
  assert.equal(facadeFor('model', undefined), 'model');
});

test('a need that is no facade is refused in words', () => {
  assert.throws(() => library('everything'), /no facade "everything": analytic, model or full/);
});

test('the builds a page fetches first, told from its markup as the autoloader preloads them', () => {
  const NEEDS = { 'tb-param-table': 'analytic', 'tb-masks': 'analytic', 'tb-attention': 'model', 'tb-train': 'full', 'tb-anatomy': 'analytic' };
  // A stand-in document: its elements' tags, prerendered or not, and the attributes the selector reads.
  const page = (elements) => {
    const els = elements.map(([localName, { prerendered = false, model } = {}]) => ({
      localName,
      shadowRoot: prerendered ? { childNodes: { length: 3 } } : null,
      matches: (sel) => sel.split(', ').some((s) => s === localName || (s === `${localName}[model="tiny-gpt"]` && model === 'tiny-gpt')),
    }));
    return { querySelectorAll: () => els, querySelector: (sel) => els.find((el) => el.matches(sel)) ?? null };
  };
  const builds = (elements) => [...pageFacades(page(elements), (el) => NEEDS[el.localName])].sort();
  assert.deepEqual(builds([['tb-param-table'], ['tb-masks']]), ['analytic']);
  assert.deepEqual(builds([['tb-attention']]), ['model']);
  // TinyGPT read beside a widget that trains: the whole facade, never TinyGPT twice.
  assert.deepEqual(builds([['tb-attention'], ['tb-train']]), ['full']);
  assert.deepEqual(builds([['tb-masks'], ['tb-anatomy', { model: 'tiny-gpt' }]]), ['analytic', 'full']);
  // Prerendered widgets that run TinyGPT render after the others: not among the first fetched…
  assert.deepEqual(builds([['tb-masks'], ['tb-train', { prerendered: true }]]), ['analytic']);
  // …unless there are no others.
  assert.deepEqual(builds([['tb-attention', { prerendered: true }]]), ['model']);
  // A tag that is not one of ours asks for nothing.
  assert.deepEqual(builds([['tb-wizard']]), []);
});
