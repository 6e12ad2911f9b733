// Every module of the npm package (dist/npm/) and of the folder (dist/transformer-block/, and the
// site's copy with its pages' modules) imports in Node, as a site generator's build imports it to
// render its pages on the server (VitePress, Astro, Next.js…): nothing thrown, nothing defined on the
// global object, nothing left running. Each import in a Node of its own, outside Playwright's.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILDS = ['dist/npm', 'dist/transformer-block', 'dist/site/transformer-block'];

/** The .js files under `dir`, relative to the repository. */
function modules(dir) {
  const found = [];
  const walk = (d) => {
    for (const name of readdirSync(join(ROOT, d))) {
      const path = `${d}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith('.js')) found.push(path);
    }
  };
  walk(dir);
  return found;
}

// Imports each file given, then prints what went wrong: { file: message } for a throw, and the
// names the imports added to globalThis. A handle left open (a timer, a fetch) would keep this Node
// running: the spawn's timeout says so.
const IMPORT_ALL = `
const before = new Set(Reflect.ownKeys(globalThis));
const thrown = {};
for (const file of process.argv.slice(1)) {
  try {
    await import(new URL(file, 'file://${ROOT}').href);
  } catch (err) {
    thrown[file] = String(err?.message ?? err);
  }
}
const added = Reflect.ownKeys(globalThis).filter((k) => !before.has(k)).map(String);
console.log(JSON.stringify({ thrown, added }));
`;

for (const build of BUILDS) {
  test(`every module of ${build} imports in Node: nothing thrown, nothing defined, nothing left running`, () => {
    const files = modules(build);
    expect(files.length, `${build} is built (make site)`).toBeGreaterThan(10);
    expect(files.some((f) => f.includes('/elements/')), 'the element modules among them').toBe(true);
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', IMPORT_ALL, ...files], { cwd: ROOT, timeout: 60_000, encoding: 'utf8' });
    const { thrown, added } = JSON.parse(out.trim().split('\n').at(-1));
    expect(thrown).toEqual({});
    expect(added).toEqual([]);
  });
}

test('in Node the package exports its API, the element classes left undefined (there is no HTMLElement to extend), and its wasm computes when asked', () => {
  const script = `const m = await import('${ROOT}dist/npm/index.js');
const lib = await m.wasm;
console.log(JSON.stringify({ keys: Object.keys(m).sort(), anatomy: typeof m.TbAnatomy, base: typeof m.TbElement, language: typeof m.addLanguage,
  presets: lib.presets().map((p) => p.name), params: lib.count('gpt2-small', 8, 1).total_params }));`;
  const r = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000, encoding: 'utf8' }));
  expect(r.keys).toEqual(expect.arrayContaining(['TbAnatomy', 'TbElement', 'addLanguage', 'allRendered', 'wasm']));
  expect(r).toMatchObject({ anatomy: 'undefined', base: 'function', language: 'function', params: 124_439_808 });
  expect(r.presets).toContain('llama3-8b');
});
