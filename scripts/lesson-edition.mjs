#!/usr/bin/env node
// One lesson, its prose per language. www/index.html is the lesson: its structure, its widgets and
// their attributes, its English prose. An edition in another language is that page with its prose
// swapped: www/fr/prose.json holds the French for each run of prose of the English page, keyed by
// the English it stands for; www/fr/index.html is written from the two, never by hand.
//
//   node scripts/lesson-edition.mjs --write     writes www/fr/index.html (after editing either)
//   node scripts/lesson-edition.mjs             says whether www/fr/index.html is up to date
//
// What is prose (runs): the text of the page with its inline markup (emphasis, code, links, math,
// <tb-number>…), from one block boundary to the next, trimmed of the whitespace around it, plus the
// <title> and the attributes a reader hears or reads (TRANSLATED). The English of a run is its key
// with its whitespace collapsed, so re-wrapping a paragraph keeps its translation; a changed sentence
// has none until the prose file gives one (--write refuses, naming each run; so does
// tests/unit/lesson-edition.test.js).
// A run without a letter (a figure, a formula's symbols) is the same in every language unless the
// prose file says otherwise. Mechanical, not prose: `lang`, and every relative URL one folder down
// (the edition lives in fr/).
//
// prose.json was made from the two pages when each was kept by hand (the French page written from it
// was the same, byte for byte).

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { EDITIONS, WWW } from './dist/common.mjs';
import { URL_ATTRS, tokenize } from './dist/lesson-page.mjs';

/** The editions written from www/index.html (those with a prose file): where each goes, its prose, its language. */
export const LESSON_EDITIONS = EDITIONS.filter((e) => e.prose);

/** Elements that sit inside a run of prose; any other tag ends one. (Inside <math>, everything does.) */
const INLINE = new Set(['a', 'abbr', 'b', 'br', 'cite', 'code', 'dfn', 'em', 'i', 'kbd', 'mark', 'math', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'tb-number', 'time', 'u', 'var', 'wbr']);
/** Attributes that are prose (what a reader reads or a screen reader says), and the other edition's language. */
const TRANSLATED = new Set(['alt', 'aria-label', 'aria-description', 'content', 'label', 'placeholder', 'title', 'hreflang']);

const collapse = (s) => s.replace(/\s+/g, ' ').trim();
const hasLetter = (s) => /\p{L}/u.test(s.replace(/<[^>]*>/g, ''));

/**
 * The page's prose, in order: runs { kind: 'run', start, end } (offsets in `html`, whitespace around
 * trimmed), the title's text, and translated attributes { kind: 'attr', name, start, end } (the
 * value's offsets), plus the relative URLs { kind: 'url', start, end }.
 */
export function proseOf(html) {
  const tokens = tokenize(html);
  const items = [];
  let run = null; // { start, end, text }
  let inMath = 0;
  const close = () => {
    if (run?.text) {
      const slice = html.slice(run.start, run.end);
      const lead = slice.length - slice.trimStart().length;
      const trail = slice.length - slice.trimEnd().length;
      items.push({ kind: 'run', start: run.start + lead, end: run.end - trail });
    }
    run = null;
  };
  const attributes = (token) => {
    const source = html.slice(token.start, token.tagEnd);
    for (const m of source.matchAll(/\s([^\s"'<>/=]+)="([^"]*)"/g)) {
      const name = m[1].toLowerCase();
      const start = token.start + m.index + m[0].length - 1 - m[2].length;
      const value = m[2];
      if (TRANSLATED.has(name) && hasLetter(value)) items.push({ kind: 'attr', name, start, end: start + value.length });
      else if (URL_ATTRS.has(name) && value && !/^(#|\/|[a-z][a-z0-9+.-]*:)/i.test(value)) items.push({ kind: 'url', name, start, end: start + value.length });
    }
  };
  for (const token of tokens) {
    const inline = inMath > 0 || token.kind === 'text' || token.kind === 'comment' || INLINE.has(token.name);
    if (token.kind === 'start' && token.name === 'math') inMath += 1;
    if (token.kind === 'end' && token.name === 'math') inMath -= 1;
    if (!inline || token.raw !== undefined) {
      close();
      if (token.kind === 'start') attributes(token);
      if (token.name === 'title' && token.raw.trim()) {
        const from = token.tagEnd + (token.raw.length - token.raw.trimStart().length);
        items.push({ kind: 'run', start: from, end: from + token.raw.trim().length });
      }
      continue;
    }
    run ??= { start: token.start, end: token.end, text: false };
    run.end = token.end;
    if (token.kind === 'text' && html.slice(token.start, token.end).trim()) run.text = true;
    if (token.kind === 'start' && inMath === 0) attributes(token);
  }
  close();
  // An attribute inside a run is the run's: translated with it.
  const runs = items.filter((i) => i.kind === 'run');
  return items.filter((i) => i.kind === 'run' || !runs.some((r) => r.start <= i.start && i.end <= r.end));
}

/** The lang attribute of the page's <html>: its offsets. */
function htmlLang(html) {
  const m = /<html\b[^>]*?\slang="([^"]*)"/.exec(html);
  if (!m) throw new Error('the page has no <html lang="…">');
  const start = m.index + m[0].length - 1 - m[1].length;
  return { start, end: start + m[1].length };
}

/**
 * www/index.html's edition in `lang`: each run and translated attribute replaced by its translation
 * in `prose` ({ runs: [{ en, fr }], attributes: [{ name, en, fr }] }), relative URLs one folder up
 * (`up`). Throws, listing them, where the prose file has no translation for a run with a letter.
 */
export function edition(english, prose, { lang, up }) {
  const runs = new Map(prose.runs.map((r) => [collapse(r.en), r[lang]]));
  const attrs = new Map(prose.attributes.map((a) => [`${a.name}\u0000${collapse(a.en)}`, a[lang]]));
  const edits = [{ ...htmlLang(english), text: lang }];
  const missing = [];
  for (const item of proseOf(english)) {
    const en = english.slice(item.start, item.end);
    if (item.kind === 'url') {
      // Relative: one folder up, unless the prose file rewrites it whole (the other edition's link).
      const whole = attrs.get(`${item.name}\u0000${en}`);
      edits.push(whole === undefined ? { start: item.start, end: item.start, text: up } : { start: item.start, end: item.end, text: whole });
    } else {
      const key = item.kind === 'run' ? collapse(en) : `${item.name}\u0000${collapse(en)}`;
      const table = item.kind === 'run' ? runs : attrs;
      if (table.has(key)) edits.push({ start: item.start, end: item.end, text: table.get(key) });
      else if (item.kind === 'attr' || hasLetter(en)) missing.push(item.kind === 'run' ? en : `${item.name}="${en}"`);
    }
  }
  if (missing.length) {
    throw new Error(`the ${lang} edition has no translation for ${missing.length} run(s) of the English page; give each in its prose file:\n${missing.map((m) => `  ${collapse(m).slice(0, 160)}`).join('\n')}`);
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += english.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + english.slice(at);
}

/** The entries of `prose` no run or attribute of `english` uses any more (English since changed): their English. */
export function unusedProse(english, prose) {
  const used = new Set();
  for (const item of proseOf(english)) {
    const en = collapse(english.slice(item.start, item.end));
    used.add(item.kind === 'run' ? en : `${item.name}\u0000${en}`);
  }
  return [...prose.runs.filter((r) => !used.has(r.en)).map((r) => r.en), ...prose.attributes.filter((a) => !used.has(`${a.name}\u0000${a.en}`)).map((a) => `${a.name}="${a.en}"`)];
}

/** Each edition as www/index.html and its prose file make it: [{ page, html, unused }]. */
export function editions() {
  const english = readFileSync(join(WWW, 'index.html'), 'utf8');
  return LESSON_EDITIONS.map((ed) => {
    const prose = JSON.parse(readFileSync(join(WWW, ed.prose), 'utf8'));
    return { ...ed, html: edition(english, prose, ed), unused: unusedProse(english, prose) };
  });
}

/** Writes each edition (www/fr/index.html), after the English page changed (module-graph.mjs --write too). */
export function writeEditions() {
  for (const ed of editions()) {
    writeFileSync(join(WWW, ed.page), ed.html);
    console.log(`lesson-edition: wrote www/${ed.page} from www/index.html and www/${ed.prose}`);
    for (const en of ed.unused) console.warn(`lesson-edition: www/${ed.prose} translates English the page no longer has: ${en.slice(0, 120)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) writeEditions();
  else {
    for (const ed of editions()) {
      if (readFileSync(join(WWW, ed.page), 'utf8') !== ed.html) {
        console.error(`lesson-edition: www/${ed.page} is not what www/index.html and www/${ed.prose} make: run node scripts/lesson-edition.mjs --write`);
        process.exitCode = 1;
      } else console.log(`lesson-edition: www/${ed.page} is up to date`);
    }
  }
}
