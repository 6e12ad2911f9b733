#!/usr/bin/env node
// `make dist`: what leaves this repository, built from www/ and the release wasm in www/pkg/.
//
//   node scripts/build-dist.mjs        (run `make wasm` first; `make dist` does both)
//
// writes
//   dist/transformer-block.js           ONE classic script (an IIFE, not a module) that defines every
//                                       <tb-…> element, the wasm bytes inside it (base64): a course page
//                                       needs only <script src="transformer-block.js"> and the elements
//   dist/transformer-block-lesson.html  the demo lesson www/index.html as one self-contained file:
//                                       its CSS in a <style>, its scripts and the widgets in one inline
//                                       classic <script>, no reference to any other file; opens from disk
//   dist/transformer-block/             the folder to copy beside a course's pages: autoloader.js (one
//                                       <script type="module">) imports only the elements a page has,
//                                       their shared chunks and the wasm half they need (folder.mjs)
//   dist/npm/                           the npm package: index.js (ES module, wasm inlined, so it works
//                                       in any bundler with no asset configuration), elements/NAME.js
//                                       (one element alone, the same way; chunks/ shared), index.d.ts,
//                                       custom-elements.json, vscode.html-custom-data.json,
//                                       transformer-block.js (the IIFE, for CDNs), package.json, README.md,
//                                       render.js and cli.js (the renderer for Node: dist/render.mjs),
//                                       types/ (JSX, Vue, Svelte: dist/framework-types.mjs)
//
// In every bundle www/src/wasm.js (which imports www/pkg/transformer_block.js and lets it fetch the
// .wasm beside it) is replaced by a loader that hands wasm-bindgen the inlined bytes, so nothing is
// fetched. The build fails loudly when the lesson page references a file it cannot inline, when the
// bundle could end an inline <script> early, or when the elements' manifest (custom-elements.json,
// from their doc comments; the types and the editor data are made from it) disagrees with them.

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BuildError, DIST, EDITIONS, ELEMENTS, LESSON_FILE, PKG, ROOT, SRC, WWW, fail } from './dist/common.mjs';
import { scanElements } from './dist/elements.mjs';
import { buildManifest, checkManifest, inFolder } from './dist/manifest.mjs';
import { indexDts } from './dist/types.mjs';
import { vscodeHtmlData } from './dist/vscode.mjs';
import { inlineLessonPage, tokenize, URL_ATTRS, isData, isFragment, isWeb } from './dist/lesson-page.mjs';
import { build, elementsEntry, inlineModules, moduleEntry, onlyLanguage } from './dist/bundle.mjs';
import { resolveLocale } from '../www/src/i18n.js';
import { ELEMENT_DTS, MANIFEST, VSCODE_HTML_DATA, npmPackage, npmReadme } from './dist/npm.mjs';
import { buildFolder, elementModules } from './dist/folder.mjs';
import { renderModules } from './dist/render.mjs';
import { frameworkTypes } from './dist/framework-types.mjs';

// What the tests and the other scripts use, from where they have always found it.
export { LESSON_FILE, scanElements, inlineLessonPage, tokenize };
export { cssProblem, inlineScriptProblem, withHashes } from './dist/lesson-page.mjs';

function version() {
  const cargo = readFileSync(join(ROOT, 'crate', 'Cargo.toml'), 'utf8');
  const v = cargo.match(/^\[package\][\s\S]*?^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!v) fail('no version in crate/Cargo.toml [package]');
  const npm = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  if (npm !== v) console.warn(`build-dist: warning: package.json version ${npm} differs from crate/Cargo.toml ${v}; using ${v}`);
  return v;
}

export function sizes(path) {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The whole build; `page` replaces www/index.html's text (for trying the inliner on a variant). */
export async function main({ page = readFileSync(join(WWW, 'index.html'), 'utf8') } = {}) {
  for (const f of ['transformer_block.js', 'transformer_block_bg.wasm']) {
    if (!existsSync(join(PKG, f))) fail(`www/pkg/${f} is missing: run \`make wasm\` (or \`make dist\`, which does)`);
  }
  const v = version();
  const elements = scanElements();
  if (elements.length === 0) fail('no customElements.define(\'tb-…\', …) under www/src/elements/');

  // The manifest, from the elements' source and doc comments, must say what they do; the types and
  // VS Code's data are made from it.
  const manifest = buildManifest();
  checkManifest(manifest, elements);
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;

  // Everything is written into a staging folder and moved into place only when all of it is built
  // and checked, so a failed build leaves the previous dist/ as it was.
  const OUT = `${DIST}.partial`;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'npm'), { recursive: true });
  const banner = `/*! transformer-block ${v} | MIT | every <tb-…> element and its WebAssembly in one classic script */`;

  // 1. The one-tag embedding.
  const iife = await build({ ...elementsEntry(elements), format: 'iife', minify: true, banner: { js: banner } });
  const iifeJs = iife.outputFiles[0].text;
  writeFileSync(join(OUT, 'transformer-block.js'), iifeJs);

  // 2. The npm package: the ES module (wasm inlined), the types, the IIFE for CDNs.
  const esm = await build({ ...moduleEntry(), format: 'esm', minify: false, metafile: true, outfile: join(OUT, 'npm', 'index.js'), banner: { js: banner } });
  const exported = Object.values(esm.metafile.outputs)[0].exports;
  const unexported = elements.filter((e) => !exported.includes(e.className));
  if (unexported.length) {
    fail(
      `the ES module does not export ${unexported.map((e) => e.className).join(', ')}: ` +
        `add export const ${unexported[0].className} = defined('${unexported[0].tag}'); (and so on) to www/src/entry-module.js`,
    );
  }
  writeFileSync(join(OUT, 'npm', 'index.js'), esm.outputFiles[0].text);
  writeFileSync(join(OUT, 'npm', 'index.d.ts'), indexDts(manifest));
  writeFileSync(join(OUT, 'npm', MANIFEST), manifestJson);
  writeFileSync(join(OUT, 'npm', VSCODE_HTML_DATA), `${JSON.stringify(vscodeHtmlData(manifest), null, 2)}\n`);
  writeFileSync(join(OUT, 'npm', 'transformer-block.js'), iifeJs);
  writeFileSync(join(OUT, 'npm', 'package.json'), `${JSON.stringify(npmPackage(v), null, 2)}\n`);
  writeFileSync(join(OUT, 'npm', 'README.md'), npmReadme(v, elements));
  await elementModules(elements, join(OUT, 'npm'), { servedWasm: false, banner });
  writeFileSync(join(OUT, 'npm', 'elements', 'element.d.ts'), ELEMENT_DTS);
  await renderModules(join(OUT, 'npm'), `/*! transformer-block ${v} | MIT */`);
  frameworkTypes(manifest, join(OUT, 'npm'));

  // 3. The folder to copy, loaded by its autoloader: only the modules a page's elements need.
  const { baseChunk } = await buildFolder(elements, join(OUT, 'transformer-block'), `/*! transformer-block ${v} | MIT */`);
  writeFileSync(join(OUT, 'transformer-block', MANIFEST), `${JSON.stringify(inFolder(manifest, baseChunk), null, 2)}\n`);

  // 4. The offline lessons, one an edition, each with the catalog of its page's language only.
  for (const edition of EDITIONS) {
    const path = join(WWW, edition.page);
    if (edition.page !== 'index.html' && !existsSync(path)) continue;
    const html = edition.page === 'index.html' ? page : readFileSync(path, 'utf8');
    await offlineLesson(html, dirname(path), edition, { v, elements, out: OUT });
  }

  rmSync(DIST, { recursive: true, force: true });
  renameSync(OUT, DIST);

  const rows = [
    ...['transformer_block', 'analytic', 'model'].map((f) => [`www/pkg/${f}_bg.wasm`, sizes(join(PKG, `${f}_bg.wasm`))]),
    ['dist/transformer-block.js', sizes(join(DIST, 'transformer-block.js'))],
    ['dist/npm/index.js', sizes(join(DIST, 'npm', 'index.js'))],
    ['dist/transformer-block/autoloader.js', sizes(join(DIST, 'transformer-block', 'autoloader.js'))],
    ...EDITIONS.filter((e) => existsSync(join(DIST, e.file))).map((e) => [`dist/${e.file}`, sizes(join(DIST, e.file))]),
  ];
  console.log(`build-dist: ${elements.length} elements (${elements.map((e) => e.tag).join(', ')})`);
  for (const [name, s] of rows) console.log(`  ${name.padEnd(42)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(10)} gzip`);
}

/**
 * One edition's offline lesson, from `page` (the text of www/<edition.page>, in `dir`): its
 * stylesheets and scripts inlined, one bundle with the catalog of the page's language only, into
 * `out`/edition.file; a file that still names another is refused.
 */
async function offlineLesson(page, dir, edition, { v, elements, out }) {
  const pageLanguage = (html) => resolveLocale(/<html[^>]*\slang="([^"]*)"/i.exec(html)?.[1] ?? '');
  const lesson = await inlineLessonPage(page, {
    readLocal: (href) => {
      const path = resolve(dir, decodeURIComponent(href.split(/[?#]/)[0]));
      if (!path.startsWith(WWW + sep)) fail(`stylesheet ${href} is outside www/`);
      if (!existsSync(path)) fail(`stylesheet ${href} does not exist (${relative(ROOT, path)})`);
      return readFileSync(path, 'utf8');
    },
    bundle: async (modules) => {
      // One bundle for the widgets and the page's own scripts, so they share one wasm instance.
      // Built as an ES module and wrapped in an async function: a classic script, and the page's
      // scripts may use top-level await (which esbuild's IIFE output cannot carry).
      const codes = [];
      const imports = [`import ${JSON.stringify(`./${relative(dir, join(SRC, 'entry-embed.js')).split(sep).join('/')}`)};`];
      if (!existsSync(join(ELEMENTS, 'index.js'))) {
        imports[0] = [...new Set(elements.map((e) => e.file))].map((f) => `import './${relative(dir, f).split(sep).join('/')}';`).join('\n');
      }
      for (const m of modules) {
        if (m.path !== undefined) imports.push(`import ${JSON.stringify(`./${m.path.replace(/^\.\//, '')}`)};`);
        else imports.push(`import 'page-inline:${codes.push(m.code) - 1}';`);
      }
      const result = await build({
        stdin: { contents: imports.join('\n'), resolveDir: dir, sourcefile: 'lesson (generated)' },
        format: 'esm',
        minify: true,
        plugins: [inlineModules(codes), onlyLanguage(pageLanguage(page))],
      });
      return `(async()=>{\n${result.outputFiles[0].text}\n})();`;
    },
  });
  const header = `<!-- transformer-block ${v}: the lesson as one file, for reading offline. Built by \`make dist\` from www/${edition.page}. -->\n`;
  const withHeader = lesson.replace(/^(\s*<!doctype[^>]*>\s*)?/i, (doctype) => `${doctype}${header}`);
  writeFileSync(join(out, edition.file), withHeader);

  // Belt and braces: the written file, tokenized again, names no other file.
  for (const token of tokenize(withHeader)) {
    if (token.kind !== 'start') continue;
    for (const [attr, value] of token.attrs) {
      const navigates = (token.name === 'a' || token.name === 'area') && attr === 'href';
      if (URL_ATTRS.has(attr) && !isData(value) && !isFragment(value) && !(navigates && isWeb(value))) {
        fail(`dist/${edition.file} still references "${value}" (<${token.name} ${attr}>)`);
      }
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    if (err instanceof BuildError) console.error(`build-dist: error: ${err.message}`);
    else console.error(err);
    process.exit(1);
  });
}

