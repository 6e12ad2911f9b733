// The widgets that ask for the whole facade are named in wasm.js (WHOLE_FACADE_WIDGETS), so that a
// widget that only reads TinyGPT takes the whole facade too on their page and TinyGPT is never
// fetched twice. This keeps that list and the element classes' own `needs` agreeing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scanElements } from '../../scripts/dist/elements.mjs';
import { WHOLE_FACADE_WIDGETS, library } from '../../www/src/wasm.js';

const listed = WHOLE_FACADE_WIDGETS.split(',').map((s) => s.trim());

test('every widget that asks for the whole facade is named, and none other', () => {
  const elements = scanElements();
  assert.ok(elements.length >= 16);
  let whole = 0;
  for (const { tag, file } of elements) {
    const text = readFileSync(file, 'utf8');
    const declared = /static needs = '(\w+)'/.exec(text)?.[1] ?? 'analytic';
    const byAttributes = /\n {2}needs\(\) \{[^}]*'full'/.test(text);
    const bare = listed.includes(tag);
    const conditional = listed.some((s) => s.startsWith(`${tag}[`));
    assert.ok(['analytic', 'model', 'full'].includes(declared), `${tag}: needs '${declared}'`);
    if (declared === 'full') assert.ok(bare, `${tag} needs the whole facade: name it in WHOLE_FACADE_WIDGETS`);
    else if (byAttributes) assert.ok(conditional && !bare, `${tag} needs the whole facade by its attributes: name it with them`);
    else assert.ok(!bare && !conditional, `${tag} does not need the whole facade: WHOLE_FACADE_WIDGETS names it`);
    if (bare || conditional) whole += 1;
  }
  assert.equal(whole, listed.length, 'WHOLE_FACADE_WIDGETS names a tag that is not an element');
});

test('a need that is no facade is refused in words', () => {
  assert.throws(() => library('everything'), /no facade "everything": analytic, model or full/);
});
