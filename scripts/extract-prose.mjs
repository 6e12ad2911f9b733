#!/usr/bin/env node
// `make corpus`: the lesson page's own prose, as plain text, for TinyGPT to learn from ("the model
// learns to write like this page").
//
//   node scripts/extract-prose.mjs [www/index.html] > crate/data/lesson-prose.txt   (after `make wasm`)
//
// What it keeps: the text of every heading, paragraph, list item and caption inside <main>, one per
// line, whitespace collapsed, with each <tb-number> written as the page shows it (computed by the
// release wasm in www/pkg/ through the page's own lesson-values.js, so the figures are the page's).
// What it drops: scripts, styles, status lines, widgets (<tb-…>), formulas (<math>), tables, and
// every sentence that held an inline formula or a figure it cannot compute here (a <tb-number> whose
// source is not the analytic model or a worked example: a figure measured from this very corpus
// would make the corpus depend on itself). The output depends only on the page and the crate:
// running it twice gives the same bytes.

import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { tokenize } from './build-dist.mjs';
import { numberFromAttributes, sourceKey } from '../www/src/lesson-values.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Elements whose text is one line of prose. */
const BLOCKS = new Set(['h1', 'h2', 'h3', 'h4', 'p', 'li', 'figcaption', 'dt', 'dd', 'summary']);
/** Elements skipped with everything inside them. */
const SKIP = new Set(['script', 'style', 'math', 'table', 'svg', 'nav', 'template', 'button', 'select', 'textarea']);
/** Marks a hole: a figure or formula the page computes or draws; its sentence is dropped. */
const HOLE = '\u0000';

function decode(text) {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

/** Sentences of a line: split after . ? ! followed by a space and a capital, digit or quote. */
function sentences(line) {
  return line.split(/(?<=[.?!])\s+(?=[A-Z0-9"'(])/);
}

/** The wasm facade, instantiated from www/pkg/ (the release build `make wasm` writes). */
export async function loadFacade() {
  const pkg = join(ROOT, 'www', 'pkg');
  const lib = await import(pathToFileURL(join(pkg, 'transformer_block.js')).href);
  await lib.default({ module_or_path: readFileSync(join(pkg, 'transformer_block_bg.wasm')) });
  return lib;
}

/** Sources whose figures do not depend on this corpus (a figure measured from it would make the
 * corpus depend on itself). */
const COMPUTABLE = (key) => key === 'count' || key === 'defaults' || key === 'training-run' || key.startsWith('example:');

/** A <tb-number>'s text as the page shows it (the page's own function), or null when it cannot be
 * computed here. */
export function numberText(lib, attrs) {
  const source = sourceKey(attrs.get('source'));
  if (source.error || !COMPUTABLE(source.value)) return null;
  const shown = numberFromAttributes(lib, (name) => (attrs.has(name) && attrs.get(name).trim() !== '' ? attrs.get(name).trim() : null));
  return shown.error ? null : shown.text;
}

export function extractProse(html, lib) {
  const tokens = tokenize(html);
  const lines = [];
  let inMain = false;
  let skipDepth = 0; // inside a skipped element
  let skipName = '';
  let block = null; // the text of the block being read, or null
  let blockDepth = 0;
  for (const token of tokens) {
    if (token.kind === 'start' && token.name === 'main') inMain = true;
    if (token.kind === 'end' && token.name === 'main') inMain = false;
    if (!inMain) continue;
    if (skipDepth > 0) {
      if (token.kind === 'start' && token.name === skipName) skipDepth++;
      if (token.kind === 'end' && token.name === skipName) skipDepth--;
      continue;
    }
    if (token.kind === 'start') {
      const name = token.name;
      const hidden = token.attrs.has('hidden') || token.attrs.get('role') === 'status' || token.attrs.get('aria-hidden') === 'true';
      if (SKIP.has(name) || name.startsWith('tb-') || hidden || token.raw !== undefined) {
        if (block !== null && name === 'tb-number') block += numberText(lib, token.attrs) ?? HOLE;
        if (block !== null && name === 'math') block += HOLE;
        if (token.raw === undefined) {
          skipName = name;
          skipDepth = 1;
        }
        continue;
      }
      if (BLOCKS.has(name)) {
        if (block === null) {
          block = '';
          blockDepth = 0;
        }
        blockDepth++;
      }
      if (name === 'br' && block !== null) block += ' ';
      continue;
    }
    if (token.kind === 'end') {
      if (BLOCKS.has(token.name) && block !== null && --blockDepth === 0) {
        const line = decode(block).replace(/\s+/g, ' ').trim();
        const kept = sentences(line).filter((s) => !s.includes(HOLE) && s.trim() !== '');
        if (kept.length) lines.push(kept.join(' '));
        block = null;
      }
      continue;
    }
    if (token.kind === 'text' && block !== null) block += html.slice(token.start, token.end);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = process.argv[2] ?? join(ROOT, 'www', 'index.html');
  process.stdout.write(extractProse(readFileSync(page, 'utf8'), await loadFacade()));
}
