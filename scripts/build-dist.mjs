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
//   dist/npm/                           the npm package: index.js (ES module, wasm inlined, so it works
//                                       in any bundler with no asset configuration), index.d.ts,
//                                       transformer-block.js (the IIFE, for CDNs), package.json, README.md
//
// In every bundle www/src/wasm.js (which imports www/pkg/transformer_block.js and lets it fetch the
// .wasm beside it) is replaced by a loader that hands wasm-bindgen the inlined bytes, so nothing is
// fetched. The build fails loudly when the lesson page references a file it cannot inline, when the
// bundle could end an inline <script> early, or when the types no longer match the elements.

import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WWW = join(ROOT, 'www');
const SRC = join(WWW, 'src');
const ELEMENTS = join(SRC, 'elements');
const PKG = join(WWW, 'pkg');
const DIST = join(ROOT, 'dist');

/** Browsers with constructable stylesheets and ES2022 classes (private fields, static blocks). */
const TARGET = ['es2022', 'chrome111', 'firefox113', 'safari16.4'];
/** The name of the offline lesson; the served page links to it ("Download this lesson"). */
export const LESSON_FILE = 'transformer-block-lesson.html';

class BuildError extends Error {}
const fail = (message) => {
  throw new BuildError(message);
};

// ------------------------------------------------------------------------------------------------
// The elements and their types

/** Every `customElements.define('tb-…', Class)` under www/src/elements/: [{ tag, className, file }]. */
export function scanElements(dir = ELEMENTS) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/customElements\.define\(\s*(['"])(tb-[a-z0-9-]+)\1\s*,\s*([A-Za-z_$][\w$]*)/g)) {
          found.push({ tag: m[2], className: m[3], file: path });
        }
      }
    }
  };
  walk(dir);
  return found.sort((a, b) => a.tag.localeCompare(b.tag));
}

/** The `'tb-…': Class` entries of HTMLElementTagNameMap in a hand-written .d.ts. */
export function declaredTags(dts) {
  const map = dts.match(/interface\s+HTMLElementTagNameMap\s*\{([^}]*)\}/);
  if (!map) return [];
  return [...map[1].matchAll(/['"](tb-[a-z0-9-]+)['"]\s*:\s*([A-Za-z_$][\w$]*)/g)].map((m) => ({ tag: m[1], className: m[2] }));
}

// ------------------------------------------------------------------------------------------------
// The lesson page: one file, nothing external

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
/** Attributes whose value the browser may fetch (or, for <a>/<area>, navigate to). */
const URL_ATTRS = new Set(['src', 'href', 'xlink:href', 'srcset', 'imagesrcset', 'poster', 'data', 'action', 'formaction', 'background', 'manifest', 'ping', 'codebase', 'longdesc']);

function decodeEntities(s) {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function parseAttributes(text) {
  const attrs = new Map();
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of text.matchAll(re)) {
    const name = m[1].toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

/**
 * The page as a list of tokens: { kind: 'text' | 'comment' | 'doctype' | 'start' | 'end', start, end,
 * name, attrs, raw } where a raw-text element (script, style, textarea, title) carries its content in
 * `raw` and `end` is past its closing tag.
 */
export function tokenize(html) {
  const tokens = [];
  let i = 0;
  const text = (from, to) => to > from && tokens.push({ kind: 'text', start: from, end: to });
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    text(i, lt);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      if (close < 0) fail(`unterminated <!-- comment at offset ${lt}`);
      tokens.push({ kind: 'comment', start: lt, end: close + 3 });
      i = close + 3;
      continue;
    }
    const m = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt));
    if (m) {
      const name = m[2].toLowerCase();
      const end = lt + m[0].length;
      if (m[1]) {
        tokens.push({ kind: 'end', name, start: lt, end });
        i = end;
        continue;
      }
      const token = { kind: 'start', name, attrs: parseAttributes(m[3]), start: lt, end, tagEnd: end };
      if (RAW_TEXT.has(name)) {
        const close = html.toLowerCase().indexOf(`</${name}`, end);
        if (close < 0) fail(`<${name}> at offset ${lt} is never closed`);
        const closeEnd = html.indexOf('>', close) + 1;
        token.raw = html.slice(end, close);
        token.end = closeEnd;
      }
      tokens.push(token);
      i = token.end;
      continue;
    }
    if (/^<![A-Za-z]/.test(html.slice(lt, lt + 3))) {
      const close = html.indexOf('>', lt);
      tokens.push({ kind: 'doctype', start: lt, end: close + 1 });
      i = close + 1;
      continue;
    }
    // A lone '<' in text.
    text(lt, lt + 1);
    i = lt + 1;
  }
  text(i, html.length);
  return tokens;
}

const isData = (url) => /^\s*data:/i.test(url);
const isFragment = (url) => /^\s*#/.test(url);
const isWeb = (url) => /^\s*(https?:|mailto:)/i.test(url);

/** Why a CSS text cannot go into the one file as it is, or null. */
export function cssProblem(css) {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  if (/@import\b/i.test(plain)) return 'it uses @import';
  for (const m of plain.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!isData(m[2]) && !isFragment(m[2])) return `it references url(${m[2]})`;
  }
  if (/<\/style/i.test(plain)) return 'it contains "</style"';
  return null;
}

/** Why a script text cannot go into an inline <script>, or null. */
export function inlineScriptProblem(js) {
  if (/<\/script/i.test(js)) return 'it contains "</script", which would end the inline <script> early';
  if (/<!--/.test(js)) return 'it contains "<!--", which changes how an inline <script> is parsed';
  return null;
}

/**
 * Turn the served lesson page into one self-contained file.
 *
 *   html         the page (www/index.html)
 *   readLocal    (path relative to the page) => file text; a stylesheet's contents
 *   bundle       (modules: [{ path } | { code }]) => classic-script JS for the page's module scripts,
 *                in document order, together with every element
 *
 * <link rel=stylesheet href=local> becomes <style>; every <script type=module> is removed and one
 * classic <script> with the bundle goes before </body> (where deferred module scripts would run);
 * an element marked data-online-only (e.g. the "Download this lesson" link) is dropped; a
 * Content-Security-Policy <meta> keeps its strictness, with the hashes of the inline script and
 * styles added (the only way an inline script may run under it). Anything
 * else that names a file (src, href, srcset, poster, url() ...) fails the build, except data: URLs,
 * #fragments, and links (<a>, <area>) to http(s) or mailto addresses, which load nothing.
 */
export async function inlineLessonPage(html, { readLocal, bundle }) {
  const tokens = tokenize(html);
  const out = [];
  const modules = [];
  const problems = [];
  let bodyClose = -1;
  let cspAt = -1; // index in `out` of a <meta http-equiv=Content-Security-Policy>
  let csp = '';
  const inlineScripts = []; // exact contents, for the policy's hashes
  const inlineStyles = [];
  let skipUntil = -1; // index of the token that closes a data-online-only element

  const where = (token) => `line ${html.slice(0, token.start).split('\n').length}`;
  const tagText = (token) => html.slice(token.start, token.tagEnd ?? token.end).replace(/\s+/g, ' ').slice(0, 120);

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (t <= skipUntil) continue;
    if (token.kind === 'comment') continue; // comments go: nothing commented out is checked or kept
    if (token.kind === 'end' && token.name === 'body') bodyClose = out.length;
    if (token.kind !== 'start') {
      out.push(html.slice(token.start, token.end));
      continue;
    }
    const { name, attrs } = token;

    if (attrs.has('data-online-only')) {
      skipUntil = VOID.has(name) || token.raw !== undefined ? t : matchingEnd(tokens, t);
      continue;
    }

    if (name === 'script') {
      const type = (attrs.get('type') ?? '').trim().toLowerCase();
      if (type === 'module') {
        if (attrs.has('src')) {
          const src = attrs.get('src');
          if (isData(src) || isWeb(src) || /^\s*\/\//.test(src)) problems.push(`${where(token)}: module script ${src} is not a file of the page`);
          else modules.push({ path: src });
        } else {
          modules.push({ code: token.raw });
        }
        continue;
      }
      if (type === 'importmap') {
        problems.push(`${where(token)}: an import map has no meaning in the bundled file`);
        continue;
      }
      if (attrs.has('src')) {
        problems.push(`${where(token)}: classic <script src="${attrs.get('src')}"> would be fetched; make it a module script (bundled) or drop it`);
        continue;
      }
      const classic = type === '' || type.includes('javascript');
      const problem = classic ? inlineScriptProblem(token.raw) : null;
      if (problem) problems.push(`${where(token)}: inline script: ${problem}`);
      if (classic) inlineScripts.push(token.raw);
      out.push(html.slice(token.start, token.end));
      continue;
    }

    if (name === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      const href = attrs.get('href') ?? '';
      if (rel.includes('stylesheet')) {
        if (isData(href) || isWeb(href) || /^\s*\/\//.test(href) || href.trim() === '') {
          problems.push(`${where(token)}: stylesheet "${href}" is not a file of the page`);
          continue;
        }
        const css = readLocal(href);
        const problem = cssProblem(css);
        if (problem) problems.push(`${where(token)}: stylesheet ${href}: ${problem}`);
        const media = attrs.has('media') ? ` media="${attrs.get('media').replace(/"/g, '&quot;')}"` : '';
        const content = `\n${css.trimEnd()}\n`;
        inlineStyles.push(content);
        out.push(`<style${media}>${content}</style>`);
        continue;
      }
    }

    if (name === 'base') problems.push(`${where(token)}: <base> changes what every link points at`);
    if (name === 'meta' && (attrs.get('http-equiv') ?? '').toLowerCase() === 'refresh') {
      problems.push(`${where(token)}: <meta http-equiv=refresh> loads another page`);
    }
    if (name === 'meta' && (attrs.get('http-equiv') ?? '').toLowerCase() === 'content-security-policy') {
      if (cspAt >= 0) problems.push(`${where(token)}: a second Content-Security-Policy <meta>`);
      cspAt = out.length;
      csp = attrs.get('content') ?? '';
      out.push(''); // written at the end, with the hashes
      continue;
    }
    if (name === 'style') {
      const problem = cssProblem(token.raw);
      if (problem) problems.push(`${where(token)}: <style>: ${problem}`);
      inlineStyles.push(token.raw);
    }
    for (const [attr, value] of attrs) {
      if (attr === 'style') {
        const problem = cssProblem(value);
        if (problem) problems.push(`${where(token)}: style attribute of <${name}>: ${problem}`);
        continue;
      }
      if (!URL_ATTRS.has(attr)) continue;
      const navigates = (name === 'a' || name === 'area') && attr === 'href';
      const urls = attr.endsWith('srcset') ? value.split(',').map((s) => s.trim().split(/\s+/)[0]) : [value];
      for (const url of urls) {
        if (isData(url) || isFragment(url) || (navigates && isWeb(url))) continue;
        const hint =
          url.trim() === LESSON_FILE
            ? ' (mark the download link, or the element around it, data-online-only: the offline file drops it)'
            : '';
        problems.push(`${where(token)}: ${tagText(token)} references "${url}"${hint}`);
      }
    }
    out.push(html.slice(token.start, token.end));
  }

  if (bodyClose < 0) problems.push('no </body>: nowhere to put the script');
  if (modules.length === 0) problems.push('no <script type="module">: the page has no script to bundle');
  if (problems.length) {
    fail(`the lesson page cannot become one self-contained file:\n  ${problems.join('\n  ')}`);
  }

  const js = await bundle(modules);
  const problem = inlineScriptProblem(js);
  if (problem) fail(`the lesson bundle cannot be inlined: ${problem}`);
  const content = `\n${js.trimEnd()}\n`;
  inlineScripts.push(content);
  if (cspAt >= 0) {
    const policy = withHashes(csp, inlineScripts, inlineStyles);
    out[cspAt] = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  }
  out.splice(bodyClose, 0, `<script>${content}</script>\n`);
  return out.join('');
}

/** The CSP source for an inline element's text (line breaks as the HTML parser leaves them). */
const sha256 = (text) => `'sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}'`;

/**
 * The policy with the hashes of the inline scripts and styles added to the directives that govern
 * them (script-src / style-src, their -elem forms, or default-src when neither is given), unless a
 * directive already allows 'unsafe-inline' (where a hash would switch that off).
 */
export function withHashes(policy, scripts, styles) {
  const directives = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0]);
  const find = (name) => directives.find((d) => d[0].toLowerCase() === name);
  const add = (kind, contents) => {
    if (contents.length === 0) return;
    const hashes = [...new Set(contents.map(sha256))];
    let targets = [find(`${kind}-src`), find(`${kind}-src-elem`)].filter(Boolean);
    if (targets.length === 0) {
      const fallback = find('default-src');
      if (!fallback) return; // nothing restricts them
      const own = [`${kind}-src`, ...fallback.slice(1).filter((s) => s !== "'none'")];
      directives.push(own);
      targets = [own];
    }
    for (const d of targets) {
      if (d.some((s) => s.toLowerCase() === "'unsafe-inline'")) continue;
      const keep = d.filter((s) => s !== "'none'");
      d.splice(0, d.length, ...keep, ...hashes);
    }
  };
  add('script', scripts);
  add('style', styles);
  return directives.map((d) => d.join(' ')).join('; ');
}

/** The index of the token that closes the element opened at tokens[open] (same name, nested). */
function matchingEnd(tokens, open) {
  const name = tokens[open].name;
  let depth = 0;
  for (let t = open; t < tokens.length; t++) {
    const token = tokens[t];
    if (token.name !== name) continue;
    if (token.kind === 'start') depth++;
    else if (token.kind === 'end' && --depth === 0) return t;
  }
  fail(`<${name} data-online-only> is never closed`);
}

// ------------------------------------------------------------------------------------------------
// Bundling

/**
 * esbuild plugin: www/src/wasm.js becomes a loader of the wasm inlined in the bundle. The served
 * wasm.js fetches the .wasm beside the glue; a bundle has nothing beside it. The bytes go in
 * gzip-compressed (by zopfli, 5% smaller than gzip -9) and then base64-encoded, and are inflated at
 * load with DecompressionStream: a gzipped page then costs about the gzipped wasm, where base64 of
 * the raw wasm would cost a third more (measured on the 522 KB wasm: 236 KB against 320 KB).
 * Same exports, same shapes: `wasmModule`, the promise of the
 * compiled WebAssembly.Module (posted to the training worker), and `wasm`, the promise of the
 * wasm-bindgen module namespace, instantiated once.
 */
const inlineWasm = {
  name: 'inline-wasm',
  setup(build) {
    const served = join(SRC, 'wasm.js');
    build.onResolve({ filter: /(^|\/)wasm\.js$/ }, (args) => {
      if (resolve(args.resolveDir, args.path) !== served) return undefined;
      return { path: served, namespace: 'inline-wasm' };
    });
    build.onLoad({ filter: /.*/, namespace: 'inline-wasm' }, async () => {
      const packed = await packedWasm();
      return {
        resolveDir: SRC,
        loader: 'js',
        contents: `
        import init, * as lib from '../pkg/transformer_block.js';
        const PACKED = ${JSON.stringify(packed)};
        async function inflate() {
          const gz = Uint8Array.from(atob(PACKED), (c) => c.charCodeAt(0));
          const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
          return new Response(stream).arrayBuffer();
        }
        const explain = (err) => {
          const csp = /Content.Security.Policy|CompileError.*(eval|disallowed)|call to WebAssembly/i.test(String(err))
            ? " The page's Content-Security-Policy must allow it: script-src 'wasm-unsafe-eval'."
            : '';
          return new Error('could not instantiate the WebAssembly module (' + err.message + ').' + csp, { cause: err });
        };
        export const wasmModule = inflate().then((bytes) => WebAssembly.compile(bytes)).catch((err) => { throw explain(err); });
        wasmModule.catch(() => {});
        export const wasm = wasmModule.then((module) => init({ module_or_path: module })).then(() => lib, (err) => {
          throw err.message.startsWith('could not instantiate') ? err : explain(err);
        });
      `,
      };
    });
  },
};

let packed; // the wasm, zopfli-gzipped and base64-encoded, made once per run of this script

async function packedWasm() {
  packed ??= Buffer.from(await gzipAsync(readFileSync(join(PKG, 'transformer_block_bg.wasm')), { numiterations: 15 })).toString('base64');
  return packed;
}

/**
 * esbuild plugin: www/src/train/worker-url.js (which starts the training worker from the module file
 * beside it) becomes a starter of the worker bundled into the script: `workerSource` is the worker
 * (www/src/train/worker.js with the wasm-bindgen glue, one classic script, no wasm: the page posts
 * its compiled module), started from a blob: URL. A Content-Security-Policy must allow that
 * (`worker-src blob:`); where it does not, the page trains on the main thread instead.
 */
function inlineWorker(workerSource) {
  return {
    name: 'inline-worker',
    setup(build) {
      const served = join(SRC, 'train', 'worker-url.js');
      build.onResolve({ filter: /(^|\/)worker-url\.js$/ }, (args) => {
        if (resolve(args.resolveDir, args.path) !== served) return undefined;
        return { path: served, namespace: 'inline-worker' };
      });
      build.onLoad({ filter: /.*/, namespace: 'inline-worker' }, () => ({
        resolveDir: join(SRC, 'train'),
        loader: 'js',
        contents: `
          const SOURCE = ${JSON.stringify(workerSource)};
          export function createWorker() {
            const url = URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' }));
            const worker = new Worker(url, { name: 'tb-training' });
            const revoke = () => URL.revokeObjectURL(url);
            worker.addEventListener('message', revoke, { once: true });
            worker.addEventListener('error', revoke, { once: true });
            return worker;
          }
        `,
      }));
    },
  };
}

/** The training worker as one classic script (glue and loop; the wasm comes from the page). */
async function workerBundle() {
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: [join(SRC, 'train', 'worker.js')],
    format: 'iife',
    minify: true,
  });
  const js = result.outputFiles[0].text;
  const problem = inlineScriptProblem(js);
  if (problem) fail(`the training worker cannot be inlined: ${problem}`);
  return js;
}

/** A plugin that serves inline module scripts of the page as virtual modules `page-inline:N`. */
function inlineModules(codes) {
  return {
    name: 'page-inline-modules',
    setup(build) {
      build.onResolve({ filter: /^page-inline:\d+$/ }, (args) => ({ path: args.path, namespace: 'page-inline' }));
      build.onLoad({ filter: /.*/, namespace: 'page-inline' }, (args) => ({
        contents: codes[Number(args.path.split(':')[1])],
        resolveDir: WWW,
        loader: 'js',
      }));
    },
  };
}

const COMMON = {
  bundle: true,
  write: false,
  target: TARGET,
  platform: 'browser',
  charset: 'utf8',
  legalComments: 'none',
  loader: { '.wasm': 'binary' },
  // The glue's default path, new URL('…_bg.wasm', import.meta.url), is never taken: the bytes are passed.
  logOverride: { 'empty-import-meta': 'silent' },
  define: { 'import.meta.url': 'undefined' },
  logLevel: 'warning',
};

let worker; // the training worker's source, built once per run of this script

async function build(options) {
  worker ??= await workerBundle();
  const plugins = [inlineWasm, inlineWorker(worker), ...(options.plugins ?? [])];
  return esbuild.build({ ...COMMON, ...options, plugins });
}

/** The element entry: www/src/entry-embed.js, or (until elements/index.js exists) every element file. */
function elementsEntry(elements) {
  if (existsSync(join(ELEMENTS, 'index.js'))) return { entryPoints: [join(SRC, 'entry-embed.js')] };
  console.warn('build-dist: warning: www/src/elements/index.js does not exist yet; bundling every element file instead');
  const files = [...new Set(elements.map((e) => e.file))];
  return {
    stdin: {
      contents: files.map((f) => `import './${relative(SRC, f).split(sep).join('/')}';`).join('\n'),
      resolveDir: SRC,
      sourcefile: 'entry-embed (generated)',
    },
  };
}

/** The module entry: www/src/entry-module.js (its element list is checked against the scan below). */
function moduleEntry() {
  return { entryPoints: [join(SRC, 'entry-module.js')] };
}

// ------------------------------------------------------------------------------------------------

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

  // The hand-written types must name exactly the elements there are.
  const dts = readFileSync(join(SRC, 'entry-module.d.ts'), 'utf8');
  const declared = declaredTags(dts);
  const key = (e) => `${e.tag} ${e.className}`;
  const missing = elements.filter((e) => !declared.some((d) => key(d) === key(e)));
  const stale = declared.filter((d) => !elements.some((e) => key(d) === key(e)));
  if (missing.length) {
    fail(
      'www/src/entry-module.d.ts does not declare every element:' +
        missing.map((e) => `\n  add '${e.tag}': ${e.className} (defined in ${relative(ROOT, e.file)}), with its class`).join(''),
    );
  }
  for (const d of stale) console.warn(`build-dist: warning: entry-module.d.ts declares '${d.tag}': ${d.className}, which no file defines`);

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
  writeFileSync(join(OUT, 'npm', 'index.d.ts'), dts);
  writeFileSync(join(OUT, 'npm', 'transformer-block.js'), iifeJs);
  writeFileSync(join(OUT, 'npm', 'package.json'), `${JSON.stringify(npmPackage(v), null, 2)}\n`);
  writeFileSync(join(OUT, 'npm', 'README.md'), npmReadme(v, elements));

  // 3. The offline lesson.
  const lesson = await inlineLessonPage(page, {
    readLocal: (href) => {
      const path = resolve(WWW, decodeURIComponent(href.split(/[?#]/)[0]));
      if (!path.startsWith(WWW + sep)) fail(`stylesheet ${href} is outside www/`);
      if (!existsSync(path)) fail(`stylesheet ${href} does not exist (${relative(ROOT, path)})`);
      return readFileSync(path, 'utf8');
    },
    bundle: async (modules) => {
      // One bundle for the widgets and the page's own scripts, so they share one wasm instance.
      // Built as an ES module and wrapped in an async function: a classic script, and the page's
      // scripts may use top-level await (which esbuild's IIFE output cannot carry).
      const codes = [];
      const imports = [`import './src/entry-embed.js';`];
      if (!existsSync(join(ELEMENTS, 'index.js'))) {
        imports[0] = [...new Set(elements.map((e) => e.file))].map((f) => `import './${relative(WWW, f).split(sep).join('/')}';`).join('\n');
      }
      for (const m of modules) {
        if (m.path !== undefined) imports.push(`import ${JSON.stringify(`./${m.path.replace(/^\.\//, '')}`)};`);
        else imports.push(`import 'page-inline:${codes.push(m.code) - 1}';`);
      }
      const result = await build({
        stdin: { contents: imports.join('\n'), resolveDir: WWW, sourcefile: 'lesson (generated)' },
        format: 'esm',
        minify: true,
        plugins: [inlineModules(codes)],
      });
      return `(async()=>{\n${result.outputFiles[0].text}\n})();`;
    },
  });
  const header = `<!-- transformer-block ${v}: the lesson as one file, for reading offline. Built by \`make dist\` from www/index.html. -->\n`;
  const withHeader = lesson.replace(/^(\s*<!doctype[^>]*>\s*)?/i, (doctype) => `${doctype}${header}`);
  writeFileSync(join(OUT, LESSON_FILE), withHeader);

  // Belt and braces: the written file, tokenized again, names no other file.
  for (const token of tokenize(withHeader)) {
    if (token.kind !== 'start') continue;
    for (const [attr, value] of token.attrs) {
      const navigates = (token.name === 'a' || token.name === 'area') && attr === 'href';
      if (URL_ATTRS.has(attr) && !isData(value) && !isFragment(value) && !(navigates && isWeb(value))) {
        fail(`dist/${LESSON_FILE} still references "${value}" (<${token.name} ${attr}>)`);
      }
    }
  }

  rmSync(DIST, { recursive: true, force: true });
  renameSync(OUT, DIST);

  const rows = [
    ['www/pkg/transformer_block_bg.wasm', sizes(join(PKG, 'transformer_block_bg.wasm'))],
    ['dist/transformer-block.js', sizes(join(DIST, 'transformer-block.js'))],
    ['dist/npm/index.js', sizes(join(DIST, 'npm', 'index.js'))],
    [`dist/${LESSON_FILE}`, sizes(join(DIST, LESSON_FILE))],
  ];
  console.log(`build-dist: ${elements.length} elements (${elements.map((e) => e.tag).join(', ')})`);
  for (const [name, s] of rows) console.log(`  ${name.padEnd(42)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(10)} gzip`);
}

function npmPackage(v) {
  return {
    name: 'transformer-block',
    version: v,
    description:
      'Custom elements (<tb-…>) for lessons on the transformer block: exact parameter counts, FLOPs and a running TinyGPT, computed by a Rust library compiled to WebAssembly.',
    license: 'MIT',
    type: 'module',
    main: './index.js',
    module: './index.js',
    types: './index.d.ts',
    exports: {
      '.': { types: './index.d.ts', default: './index.js' },
      './transformer-block.js': './transformer-block.js',
      './package.json': './package.json',
    },
    unpkg: './transformer-block.js',
    jsdelivr: './transformer-block.js',
    files: ['index.js', 'index.d.ts', 'transformer-block.js', 'README.md'],
    // Importing the module defines the custom elements: a bundler must not drop it.
    sideEffects: true,
    keywords: ['transformer', 'gpt', 'web-components', 'custom-elements', 'webassembly', 'education'],
  };
}

function npmReadme(v, elements) {
  return `# transformer-block ${v}

Custom elements for lessons on the transformer block. Every number is computed by a Rust library
compiled to WebAssembly; the wasm bytes are inside the JavaScript, so there is nothing else to copy,
serve or configure.

## In a bundled site

\`\`\`js
import 'transformer-block';            // defines every element
// or: import { TbAnatomy, wasm } from 'transformer-block';
\`\`\`

## With one script tag (no bundler)

\`\`\`html
<script src="transformer-block.js"></script>   <!-- a classic script: no type="module" -->
<tb-anatomy model="gpt2-small" seq-len="8"></tb-anatomy>
\`\`\`

Elements: ${elements.map((e) => `\`<${e.tag}>\``).join(', ')}.

Content-Security-Policy: the widgets need no inline script or style and no eval; WebAssembly needs
\`script-src 'wasm-unsafe-eval'\`.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    if (err instanceof BuildError) console.error(`build-dist: error: ${err.message}`);
    else console.error(err);
    process.exit(1);
  });
}

