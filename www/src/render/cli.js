#!/usr/bin/env node
// npx transformer-block render 'site/**/*.html' [more patterns or files]
//
// Every <tb-…> element of each built page gets its first render written in, in place, as
// declarative shadow DOM (render.js), so a static host serves figures that show before any script.
// Run it after the site generator's build, over its output folder. Rendering a page twice gives the
// same page.
//
// Exit status: 0 when every page was read and written (a page's bad widget is that widget's own
// message in the page, reported on stderr as a warning); 1 when a file cannot be read or written,
// naming it, or when no file matches; 2 for a wrong command line.

import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { glob, isDynamicPattern } from 'tinyglobby';
import { render } from './render.js';

const USAGE = `usage: transformer-block render <file or glob>…   e.g. transformer-block render 'site/**/*.html'
  Writes each <tb-…> element's first render into the pages in place (declarative shadow DOM).
  --base URL   the address the pages are served from (what relative links resolve against);
               default: their place on disk`;

async function main(args) {
  if (args[0] === '--help' || args[0] === '-h') return console.log(USAGE), 0;
  if (args[0] !== 'render') return console.error(args.length ? `unknown command ${args[0]}\n${USAGE}` : USAGE), 2;
  const patterns = [];
  let base = null;
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '--base') {
      base = args[++i];
      if (!base || !URL.canParse(base)) return console.error(`--base needs an absolute URL, e.g. https://example.org/course/\n${USAGE}`), 2;
    } else if (args[i].startsWith('-')) return console.error(`unknown option ${args[i]}\n${USAGE}`), 2;
    else patterns.push(args[i]);
  }
  if (patterns.length === 0) return console.error(`render: name the pages, e.g. 'site/**/*.html'\n${USAGE}`), 2;

  // A pattern is matched against the files that exist; a plain path is taken as named, so a file
  // that cannot be read is reported by name rather than matching nothing.
  const named = patterns.filter((p) => !isDynamicPattern(p)).map((p) => resolve(p));
  const globs = patterns.filter((p) => isDynamicPattern(p));
  const matched = globs.length ? await glob(globs, { absolute: true, onlyFiles: true, expandDirectories: false }) : [];
  const files = [...new Set([...named, ...matched])].sort();
  if (files.length === 0) return console.error(`render: no file matches ${patterns.join(' ')}`), 1;

  let failed = 0;
  let widgets = 0;
  const started = performance.now();
  const one = async (file) => {
    const name = relative(process.cwd(), file);
    let html;
    try {
      html = await readFile(file, 'utf8');
    } catch (err) {
      failed++;
      return console.error(`render: cannot read ${name}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    }
    const url = base ? new URL(name, base).href : pathToFileURL(file).href;
    const out = await render(html, { url, name, onWarning: (text) => console.error(`render: ${name}: ${text}`) });
    widgets += (out.match(/<template shadowrootmode="open">/g) ?? []).length;
    try {
      if (out !== html) await writeFile(file, out);
    } catch (err) {
      failed++;
      console.error(`render: cannot write ${name}: ${err.message}`);
    }
  };
  // A worker thread a page, as many at once as the machine has cores.
  const queue = [...files];
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    while (queue.length) await one(queue.shift());
  }));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`render: ${files.length - failed} of ${files.length} pages, ${widgets} widgets, in ${seconds} s`);
  return failed ? 1 : 0;
}

/** Whether this module is the program Node runs (through npx's link too), not an import of it. */
const isProgram = () => {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
};

if (isProgram()) main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`render: ${err.message}`);
    process.exit(1);
  },
);
