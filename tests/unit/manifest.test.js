// The elements' manifest (scripts/dist/manifest.mjs), built from the source as make dist builds it,
// the check that holds it to the elements, and what is made from it: the package's types
// (types.mjs, compiled here by TypeScript) and VS Code's data (vscode.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ts } from '@custom-elements-manifest/analyzer';

import { buildManifest, checkManifest, manifestElements, observedAttributes, themeProperties } from '../../scripts/dist/manifest.mjs';
import { scanElements } from '../../scripts/dist/elements.mjs';
import { indexDts } from '../../scripts/dist/types.mjs';
import { vscodeHtmlData } from '../../scripts/dist/vscode.mjs';
import { FORMAT_NAMES, SOURCES } from '../../www/src/lesson-values.js';
import en from '../../www/src/locales/en/index.js';

const manifest = buildManifest();
const elements = scanElements();
const entry = (tag, m = manifest) => manifestElements(m).find(({ decl }) => decl.tagName === tag).decl;
const attribute = (tag, name, m = manifest) => entry(tag, m).attributes.find((a) => a.name === name);
/** The values an attribute's type allows: 'a' | 'b' | string -> ['a', 'b']. */
const values = (a) => [...a.type.text.matchAll(/'([^']*)'/g)].map((m) => m[1]);
/** The check's message on a copy of the manifest that `doctor(copy)` changed. */
const problemsWith = (doctor) => {
  const copy = structuredClone(manifest);
  doctor(copy);
  assert.throws(() => checkManifest(copy, elements), /custom-elements\.json and the elements disagree/);
  try {
    checkManifest(copy, elements);
  } catch (err) {
    return err.message;
  }
};

test('the manifest has the sixteen elements under their tags, classes and the package\u2019s module paths', () => {
  const found = manifestElements(manifest).map(({ module, decl }) => [decl.tagName, decl.name, module.path]);
  assert.equal(found.length, 16);
  assert.deepEqual(
    found.sort(),
    elements.map((e) => [e.tag, e.className, `elements/${e.file.split('/elements/')[1]}`]).sort(),
  );
  assert.deepEqual(entry('tb-attention').superclass, { name: 'TbElement', module: 'index.js' });
  assert.equal(manifest.modules[0].path, 'index.js');
  assert.deepEqual(manifest.modules[0].declarations.map((d) => d.name), ['TbElement']);
});

test("tb-attention's model is shipped, six-blocks or untrained, shipped by default; its text defaults to the residual", () => {
  const model = attribute('tb-attention', 'model');
  assert.deepEqual(values(model), ['shipped', 'six-blocks', 'untrained']);
  assert.equal(model.default, 'shipped');
  assert.match(model.description, /untrained model of seed/);
  assert.deepEqual(entry('tb-attention').attributes.map((a) => a.name), ['text', 'model', 'seed', 'weights-src']);
  assert.equal(attribute('tb-attention', 'text').default, 'the residual');
  assert.equal(attribute('tb-attention', 'seed').default, '0');
  assert.equal(attribute('tb-attention', 'weights-src').default, undefined);
});

test('every element documents tb-ready, the theme\u2019s properties and its public members, inherited from TbElement', () => {
  for (const { decl } of manifestElements(manifest)) {
    const ready = decl.events.find((e) => e.name === 'tb-ready');
    assert.ok(ready, decl.tagName);
    assert.match(ready.description, /detail: \{ time \}/);
    assert.deepEqual(ready.inheritedFrom, { name: 'TbElement', module: 'index.js' });
    assert.equal(decl.cssProperties.length, Object.keys(themeProperties()).length, decl.tagName);
    assert.deepEqual(decl.members.map((m) => m.name).sort(), ['busy', 'rendered', 'uid', 'update'], decl.tagName);
  }
  assert.equal(entry('tb-anatomy').cssProperties.find((p) => p.name === '--tb-bg').default, '#ffffff');
  assert.equal(entry('tb-anatomy').cssProperties.find((p) => p.name === '--tb-radius').default, '8px');
});

test('the documented values are the ones the code takes', () => {
  const presets = readFileSync(new URL('../../crate/src/config/presets.rs', import.meta.url), 'utf8');
  const presetNames = [...presets.match(/PRESET_NAMES: \[&str; \d+\] =\s*\[([^\]]*)\]/)[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  for (const tag of ['tb-anatomy', 'tb-param-table', 'tb-cost-chart', 'tb-memory', 'tb-number']) {
    assert.deepEqual(values(attribute(tag, 'model')), presetNames, tag);
    assert.match(attribute(tag, 'model').type.text, /\| string$/, `${tag}: a config's text is a model too`);
  }
  assert.deepEqual(values(attribute('tb-number', 'format')), FORMAT_NAMES);
  assert.deepEqual(values(attribute('tb-number', 'source')).sort(), Object.keys(SOURCES).sort());
  const example = readFileSync(new URL('../../www/src/elements/example.js', import.meta.url), 'utf8');
  const names = [...example.match(/export const EXAMPLES = \{([^}]*)\}/)[1].matchAll(/^\s*(?:'([^']+)'|(\w+))\s*[:,]/gm)].map((m) => m[1] ?? m[2]);
  assert.deepEqual(values(attribute('tb-example', 'name')), names);
  assert.deepEqual(values(attribute('tb-train', 'norm')), ['pre', 'post']);
  assert.deepEqual(values(attribute('tb-ablation', 'mode')), ['removed', 'overwritten']);
});

test('the check passes on the manifest as built', () => {
  checkManifest(manifest, elements);
});

test('the check names an observed attribute the manifest lacks, and says what to write', () => {
  const message = problemsWith((m) => {
    const decl = entry('tb-attention', m);
    decl.attributes = decl.attributes.filter((a) => a.name !== 'seed');
  });
  assert.match(message, /<tb-attention> observes 'seed' but does not document it: add @attr \{type\} \[seed=default\] - what it does, to the doc comment above class TbAttention in www\/src\/elements\/attention\.js/);
  assert.equal(message.split('\n').length, 2, 'that one problem');
});

test('the check names a documented attribute that is not observed, one without a description, an undocumented event and a wrong theme default', () => {
  const message = problemsWith((m) => {
    entry('tb-masks', m).attributes.push({ name: 'colour', description: 'made up' });
    delete attribute('tb-moe', 'k', m).description;
    const number = entry('tb-number', m);
    number.events = number.events.filter((e) => e.name !== 'tb-ready');
    entry('tb-memory', m).cssProperties.find((p) => p.name === '--tb-accent').default = '#000000';
  });
  assert.match(message, /<tb-masks> documents 'colour', which TbMasks does not observe/);
  assert.match(message, /<tb-moe>: attribute 'k' has no description/);
  assert.match(message, /<tb-number> dispatches 'tb-ready' but does not document it: add @fires tb-ready/);
  assert.match(message, /<tb-memory>: --tb-accent is documented with default #000000, but theme\.js falls back to #2557a7/);
});

test('the check names an element missing from the manifest, and one the manifest has that no file defines', () => {
  const message = problemsWith((m) => {
    for (const mod of m.modules) mod.declarations = mod.declarations.filter((d) => d.tagName !== 'tb-stream');
    entry('tb-masks', m).tagName = 'tb-mask';
  });
  assert.match(message, /<tb-stream> \(TbStream, www\/src\/elements\/stream\.js\) is not in the manifest/);
  assert.match(message, /<tb-masks> \(TbMasks, www\/src\/elements\/masks\.js\) is not in the manifest/);
  assert.match(message, /the manifest has <tb-mask> \(TbMasks\), which no customElements\.define/);
});

test('observedAttributes reads a list, a LIST.map over object literals, none, and refuses anything else', () => {
  const costs = readFileSync(new URL('../../www/src/elements/training-cost.js', import.meta.url), 'utf8');
  assert.deepEqual(observedAttributes(costs, 'TbTrainingCost'), ['params', 'tokens-per-iteration', 'iterations', 'peak-tflops', 'utilisation']);
  assert.deepEqual(observedAttributes("class A extends B { static observedAttributes = ['x', \"y\"]; }", 'A'), ['x', 'y']);
  assert.deepEqual(observedAttributes('class A extends B { static get observedAttributes() { return [`z`]; } }', 'A'), ['z']);
  assert.deepEqual(observedAttributes('class A extends B { render() {} }', 'A'), []);
  assert.equal(observedAttributes('const L = names(); class A extends B { static observedAttributes = L.map((f) => f.attr); }', 'A'), null);
  assert.equal(observedAttributes("const X = 'x'; class A extends B { static observedAttributes = [X]; }", 'A'), null);
});

test('the types made from the manifest compile, type each tag and check addLanguage\u2019s keys against the catalog', () => {
  const dts = indexDts(manifest);
  for (const e of elements) {
    assert.match(dts, new RegExp(`^export declare class ${e.className} extends TbElement \\{\\}$`, 'm'));
    assert.match(dts, new RegExp(`^ {4}'${e.tag}': ${e.className};$`, 'm'));
  }
  assert.match(dts, /- `model` \('shipped' \| 'six-blocks' \| 'untrained', default `shipped`\): The model shown first/);
  assert.equal(dts.match(/^ {2}\| '/gm).length, Object.keys(en).length);
  assert.ok(!dts.includes('// The hand-written part'), 'the source file\u2019s own header stays out');

  const dir = mkdtempSync(join(tmpdir(), 'tb-types-'));
  try {
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', 'index.d.ts'), dts);
    writeFileSync(
      join(dir, 'app.ts'),
      `import { addLanguage, allRendered, TbAttention, TbElement, wasm } from './pkg/index.js';
const attention: TbAttention = document.createElement('tb-attention');
const base: TbElement = document.querySelector('tb-number')!;
const when: Promise<number> = attention.rendered;
addLanguage('de', { 'attention.title': 'Aufmerksamkeit', 'base.libraryFailed': 'x' });
// @ts-expect-error: not a key of the English catalog
addLanguage('de', { 'attention.titel': 'Aufmerksamkeit' });
wasm.then((lib) => lib.presets().map((p) => p.name));
allRendered(document).then((time: number) => time + (base.busy ? 1 : 0) + when.constructor.length);
`,
    );
    const options = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    };
    const program = ts.createProgram([join(dir, 'app.ts')], options);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    assert.deepEqual(problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("VS Code's data names every tag, offers an attribute's allowed values and says its default", () => {
  const data = vscodeHtmlData(manifest);
  assert.equal(data.version, 1.1);
  assert.deepEqual(data.tags.map((t) => t.name).sort(), elements.map((e) => e.tag).sort());
  const attention = data.tags.find((t) => t.name === 'tb-attention');
  assert.match(attention.description, /^Where each head of TinyGPT looks/);
  assert.match(attention.description, /tb-ready/);
  assert.doesNotMatch(attention.description, /--tb-bg/, 'the theme is not repeated on every tag');
  const model = attention.attributes.find((a) => a.name === 'model');
  assert.deepEqual(model.values, [{ name: 'shipped' }, { name: 'six-blocks' }, { name: 'untrained' }]);
  assert.match(model.description, / Default: shipped\.$/);
  assert.deepEqual(attention.attributes.find((a) => a.name === 'seed').values, []);
  assert.deepEqual(data.tags.find((t) => t.name === 'tb-depth-latency').attributes, []);
});
