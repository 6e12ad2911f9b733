// English comes with the code that shows it (www/src/i18n.js: speakEnglish): each module that names
// a widget's key ('paramTable.caption', `cost.${key}`) brings that widget's file of locales/en/, so a
// page that loads one widget's module has every text it shows, and no other widget's. This reads
// every module under www/src/ and checks that, and that every file of the English catalog is
// brought by some module.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../www/src/', import.meta.url));
const EN = join(SRC, 'locales', 'en');
/** What i18n.js holds from the start: the texts every widget shows. */
const ALWAYS = ['shared.js', 'library.js'];
/**
 * Modules the checkpoint worker runs, which name keys as data (problems.js: said) for the page to
 * word: they load no catalog, and the module that words what they name brings it.
 */
const WORDED_ELSEWHERE = { 'checkpoint/sources.js': 'checkpoint/client.js', 'checkpoint/problems.js': 'checkpoint/client.js' };

/** The key prefixes of each file of the English catalog: { 'param-table.js': ['paramTable'], … }. */
async function partPrefixes() {
  const parts = {};
  for (const file of readdirSync(EN).filter((f) => f.endsWith('.js') && f !== 'index.js')) {
    const { default: texts } = await import(join(EN, file));
    parts[file] = [...new Set(Object.keys(texts).map((k) => k.split('.')[0]))];
  }
  return parts;
}

/** Every .js module under www/src/ but the catalogs: [path, text without its comments]. */
function modules(dir = SRC) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'locales') found.push(...modules(path));
    } else if (entry.name.endsWith('.js')) {
      // Comment lines left out (the examples in a module's header name keys it need not show).
      const text = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
        .join('\n');
      found.push([relative(SRC, path), text]);
    }
  }
  return found;
}

test('each module brings the English of every key it names', async () => {
  const parts = await partPrefixes();
  const partOf = Object.fromEntries(Object.entries(parts).flatMap(([file, prefixes]) => prefixes.map((p) => [p, file])));
  const named = new RegExp(`['"\`](${Object.keys(partOf).join('|')})\\.[a-zA-Z$]`, 'g');
  const missing = [];
  let checked = 0;
  const all = modules();
  const names = (text) => [...text.matchAll(named)].map((m) => partOf[m[1]]).filter((f) => !ALWAYS.includes(f));
  for (const [path, text] of all) {
    if (path === 'i18n.js') continue;
    if (WORDED_ELSEWHERE[path]) {
      assert.ok(!text.includes('i18n.js'), `${path} runs in the worker: it loads no catalog`);
      continue;
    }
    const others = all.filter(([p]) => WORDED_ELSEWHERE[p] === path).flatMap(([, t]) => names(t));
    const needed = new Set([...names(text), ...others]);
    if (needed.size === 0) continue;
    checked += 1;
    const brought = new Map([...text.matchAll(/import (\w+) from '[./]*locales\/en\/([\w-]+\.js)';/g)].map((m) => [m[2], m[1]]));
    const spoken = new Set([...text.matchAll(/speakEnglish\(([^)]*)\)/g)].flatMap((m) => m[1].split(',').map((s) => s.trim())));
    for (const file of needed) {
      if (!brought.has(file) || !spoken.has(brought.get(file))) missing.push(`${path} names keys of locales/en/${file}: import it and speakEnglish() it`);
    }
  }
  assert.ok(checked > 40, `only ${checked} modules name keys`);
  assert.deepEqual(missing, []);
});

test('every file of the English catalog is brought by some module, or held from the start', async () => {
  const parts = await partPrefixes();
  const all = modules().map(([, text]) => text).join('\n');
  const orphans = Object.keys(parts).filter((file) => !ALWAYS.includes(file) && !all.includes(`locales/en/${file}'`));
  assert.deepEqual(orphans, []);
  const i18n = readFileSync(join(SRC, 'i18n.js'), 'utf8');
  for (const file of ALWAYS) assert.ok(i18n.includes(`./locales/en/${file}'`), `i18n.js holds ${file}`);
});
