#!/usr/bin/env node
// `make site`: dist/site/, the folder a course copies to any static host. Built from what `make dist`
// made: the prerendered pages (dist/pages/), the folder's build of the widgets, the offline lessons.
//
//   SITE_URL=https://course.example/transformer-block/ node scripts/site.mjs
//
// writes
//   index.html, fr/index.html   the lesson's editions, gallery/*.html the gallery: each page as
//                               make dist prerendered it (its widgets' first render inside), its
//                               scripts the folder's autoloader and, for the lesson, its own module
//                               (transformer-block/pages/lesson.js), a canonical URL and, for the
//                               lesson's editions, hreflang links to each other and x-default
//   transformer-block/          the widgets' modules, minified and split per widget, the wasm builds
//                               and the workers, as the authors' folder (scripts/dist/folder.mjs)
//                               with the lesson's own module built with them, sharing their chunks
//   prerendered/*.css           the prerendered widgets' stylesheets
//   styles.css, gallery/models/, gallery/results/, transformer-block-lesson*.html
//   _headers                    COOP and COEP for every file (Netlify's and Cloudflare Pages' form)
//   *.br, *.gz                  each text or wasm file precompressed beside it (brotli 11, gzip 9),
//                               for a host that serves them (scripts/serve.mjs --site does)
//
// SITE_URL is where the site will be served from (the canonical and hreflang URLs are absolute, as
// search engines want them); by default http://localhost:8000/, where `make serve` serves it. The
// build refuses a page that names a file the site does not hold, and a page without a description.

import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BuildError, DIST, EDITIONS, SRC, WWW, fail } from './dist/common.mjs';
import { scanElements } from './dist/elements.mjs';
import { buildFolder } from './dist/folder.mjs';
import { URL_ATTRS, isData, isFragment, isWeb, tokenize } from './dist/lesson-page.mjs';

export const SITE = join(DIST, 'site');
const PAGES = join(DIST, 'pages');
/** The folder of the widgets in the site, and the lesson's own module in it. */
const FOLDER = 'transformer-block';
const LESSON_MODULE = 'pages/lesson';
/** The files worth a precompressed copy: text and wasm (the checkpoints' weights barely shrink). */
const COMPRESSED = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt']);

/**
 * The headers the site wants sent with every file, in the `_headers` form Netlify and Cloudflare
 * Pages read from the folder they publish: cross-origin isolated, so a real checkpoint runs on
 * threads (docs/hosts.md says how on other hosts).
 */
export const HEADERS = `/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
`;

/** SITE_URL as a URL ending in '/', or a BuildError saying what is allowed. */
export function siteUrl(text = 'http://localhost:8000/') {
  let url;
  try {
    url = new URL(text);
  } catch {
    fail(`SITE_URL "${text}" is not a URL: give where the site will be served from, e.g. https://course.example/transformer-block/`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`SITE_URL "${text}" must be an http: or https: URL`);
  if (url.search || url.hash) fail(`SITE_URL "${text}" must not have a query or a fragment`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The URL a page (its path in the site, e.g. fr/index.html) is read at: a folder's index as the folder. */
export const pageUrl = (base, path) => new URL(path.replace(/(^|\/)index\.html$/, '$1'), base).href;

/** Every file below `dir`, as paths relative to it with '/'. */
function filesIn(dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(join(dir, at), { withFileTypes: true })) {
      const path = at ? `${at}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out.sort();
}

/** `html` without its comments (notes for who edits the sources, some about links the site drops). */
export function withoutComments(html) {
  const comments = tokenize(html).filter((t) => t.kind === 'comment');
  let out = html;
  for (const c of comments.reverse()) {
    const lineStart = out.lastIndexOf('\n', c.start - 1) + 1;
    const alone = /^[ \t]*$/.test(out.slice(lineStart, c.start)) && out[c.end] === '\n';
    out = alone ? out.slice(0, lineStart) + out.slice(c.end + 1) : out.slice(0, c.start) + out.slice(c.end);
  }
  return out;
}

/**
 * A prerendered page's scripts made the site's: the lesson's src/main.js becomes the folder's
 * autoloader and the lesson's own module; the gallery's element modules (src/elements/NAME.js),
 * however many, the autoloader alone. A page that still names a module of www/src/ is refused.
 */
export function withSiteScripts(html, path) {
  html = withoutComments(html);
  const up = '../'.repeat(path.split('/').length - 1);
  const tag = (src) => `<script type="module" src="${up}${src}"></script>`;
  let autoloader = false;
  const once = () => {
    if (autoloader) return '';
    autoloader = true;
    return tag(`${FOLDER}/autoloader.js`);
  };
  let out = html.replace(/<script type="module" src="(?:\.\.\/)*src\/main\.js"><\/script>/, () => `${once()}\n  ${tag(`${FOLDER}/${LESSON_MODULE}.js`)}`);
  out = out.replace(/([ \t]*)<script type="module" src="(?:\.\.\/)*src\/elements\/[a-z-]+\.js"><\/script>\n?/g, (_, indent) => {
    const line = once();
    return line ? `${indent}${line}\n` : '';
  });
  const left = /<[^>]+(?:src|href)="(?:\.\.\/)*src\/[^"]*"/.exec(out);
  if (left) fail(`${path} still names a module of www/src/ (${left[0]}): scripts/site.mjs makes only src/main.js and src/elements/*.js the folder's`);
  return out;
}

/**
 * `html` (the page at `path`) with its canonical URL, and for the lesson's editions their hreflang
 * alternates (each edition, itself included, and x-default: the English lesson) in place of the
 * relative ones the sources carry. Refused without a meta description.
 */
export function withSearchLinks(html, path, base) {
  if (!/<meta name="description" content="[^"]+">/.test(html)) fail(`${path} has no <meta name="description" content="…">: write one in www/${path}`);
  const links = [`<link rel="canonical" href="${pageUrl(base, path)}">`];
  const editions = EDITIONS.filter((e) => existsSync(join(WWW, e.page)));
  if (editions.some((e) => e.page === path)) {
    for (const e of editions) links.push(`<link rel="alternate" hreflang="${e.lang ?? 'en'}" href="${pageUrl(base, e.page)}">`);
    links.push(`<link rel="alternate" hreflang="x-default" href="${pageUrl(base, editions[0].page)}">`);
  }
  const stripped = html.replace(/[ \t]*<link rel="(?:alternate|canonical)"[^>]*>\n?/g, '');
  const at = /\n([ \t]*)<meta name="description"[^>]*>\n/.exec(stripped);
  const indent = at[1];
  const end = at.index + at[0].length;
  return stripped.slice(0, end) + links.map((l) => `${indent}${l}\n`).join('') + stripped.slice(end);
}

/**
 * `html` without the stylesheets the prerender linked in its head (the sheets a page's own script
 * adopts: the lesson's presets table's card layout), and their paths in dist/pages/. The site has
 * them in styles.css: a stylesheet in the head holds the first paint back until it arrives, and one
 * more is one more round trip before it (150 ms on a phone's network).
 */
export function withoutHeadSheets(html) {
  const sheets = [];
  const out = html.replace(/<link rel="stylesheet" href="((?:\.\.\/)*)(prerendered\/[0-9a-f]+\.css)">(?=\s*<\/head>)/g, (_, up, sheet) => {
    sheets.push(sheet);
    return '';
  });
  return { html: out, sheets };
}

/** Fails naming the first URL in a page of `out` that is neither on the web, data nor a file of `out`. */
function checkReferences(out, pages) {
  for (const path of pages) {
    const html = readFileSync(join(out, path), 'utf8');
    for (const token of tokenize(html)) {
      if (token.kind !== 'start') continue;
      for (const [attr, value] of token.attrs) {
        if (!URL_ATTRS.has(attr) || isData(value) || isFragment(value) || isWeb(value) || /^[a-z][a-z0-9+.-]*:/i.test(value)) continue;
        const target = resolve(dirname(join(out, path)), decodeURIComponent(value.split(/[?#]/)[0]));
        const file = existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.html') : target;
        if (!file.startsWith(out + sep) || !existsSync(file)) fail(`${path} names ${value} (<${token.name} ${attr}>), which the site does not hold`);
      }
    }
  }
}

/** Each text or wasm file of `out` precompressed beside it, where that makes it smaller. Returns the bytes. */
function precompress(out) {
  let raw = 0;
  let br = 0;
  for (const path of filesIn(out)) {
    if (!COMPRESSED.has(extname(path))) continue;
    const bytes = readFileSync(join(out, path));
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    if (brotli.length >= bytes.length) continue;
    writeFileSync(join(out, `${path}.br`), brotli);
    writeFileSync(join(out, `${path}.gz`), gzipSync(bytes, { level: 9 }));
    raw += bytes.length;
    br += brotli.length;
  }
  return { raw, br };
}

export async function main({ base = siteUrl(process.env.SITE_URL || undefined) } = {}) {
  if (!existsSync(join(PAGES, 'index.html'))) fail('dist/pages/ has no prerendered lesson: run `make dist` first (`make site` does)');
  const OUT = `${SITE}.partial`;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });

  // The widgets, and the lesson's own module built with them (one instance of the wasm for both).
  const elements = scanElements();
  await buildFolder(elements, join(OUT, FOLDER), '/*! transformer-block | MIT */', { pages: { [LESSON_MODULE]: join(SRC, 'presets-table.js') } });

  const pages = filesIn(PAGES).filter((p) => p.endsWith('.html'));
  const pageSheets = new Set();
  for (const path of pages) {
    const { html, sheets } = withoutHeadSheets(readFileSync(join(PAGES, path), 'utf8'));
    for (const sheet of sheets) pageSheets.add(readFileSync(join(PAGES, sheet), 'utf8'));
    mkdirSync(dirname(join(OUT, path)), { recursive: true });
    writeFileSync(join(OUT, path), withSearchLinks(withSiteScripts(html, path), path, base));
  }
  cpSync(join(PAGES, 'prerendered'), join(OUT, 'prerendered'), { recursive: true, filter: (p) => !p.endsWith('.json') });
  writeFileSync(join(OUT, 'styles.css'), [readFileSync(join(WWW, 'styles.css'), 'utf8'), ...pageSheets].join('\n'));
  for (const dir of ['gallery/models', 'gallery/results']) if (existsSync(join(WWW, dir))) cpSync(join(WWW, dir), join(OUT, dir), { recursive: true });
  // The element pages' copy buttons (scripts/dist/element-docs.mjs): a page script of the gallery's own.
  copyFileSync(join(WWW, 'gallery', 'copy-snippets.js'), join(OUT, 'gallery', 'copy-snippets.js'));
  for (const { file } of EDITIONS) if (existsSync(join(DIST, file))) copyFileSync(join(DIST, file), join(OUT, file));
  writeFileSync(join(OUT, '_headers'), HEADERS);

  checkReferences(OUT, pages);
  const { raw, br } = precompress(OUT);
  rmSync(SITE, { recursive: true, force: true });
  renameSync(OUT, SITE);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`site: ${pages.length} pages in ${relative(process.cwd(), SITE)}/ for ${base.href}; ${kb(raw)} of text and wasm, ${kb(br)} brotli (and gzip) beside it`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    if (err instanceof BuildError) console.error(`site: error: ${err.message}`);
    else console.error(err);
    process.exit(1);
  });
}
