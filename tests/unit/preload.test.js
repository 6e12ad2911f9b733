// The lesson page asks for its whole module graph and the wasm up front (www/index.html's preload
// links): the list must be exactly what the script imports, or the page loads a module late (a
// missing link) or fetches one it never runs (a stale one). The French edition (www/fr/index.html,
// written from the English page by scripts/lesson-edition.mjs) asks for the same from one folder up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WWW, preloadLinks, withPreloadLinks } from '../../scripts/module-graph.mjs';

const PAGES = [
  { page: 'index.html', href: (l) => l },
  { page: 'fr/index.html', href: (l) => l.replace('href="', 'href="../') },
];

const linksIn = (html) => [...html.matchAll(/<link rel="(?:module)?preload"[^>]*>/g)].map((m) => m[0]);

for (const { page, href } of PAGES) {
  test(`www/${page} preloads exactly the modules its script imports, the glue and the wasm`, () => {
    const html = readFileSync(`${WWW}${page}`, 'utf8');
    assert.deepEqual(linksIn(html), preloadLinks().map(href), 'regenerate the links with: node scripts/module-graph.mjs --write');
  });
}

test('--write replaces the run of links, in its indentation, and nothing else', () => {
  const html = '<head>\n  <title>x</title>\n  <link rel="modulepreload" href="a.js">\n  <link rel="preload" href="b.wasm" as="fetch">\n  <script src="c.js"></script>\n</head>';
  const out = withPreloadLinks(html, ['<link rel="modulepreload" href="d.js">']);
  assert.equal(out, '<head>\n  <title>x</title>\n  <link rel="modulepreload" href="d.js">\n  <script src="c.js"></script>\n</head>');
  assert.throws(() => withPreloadLinks('<head></head>', []), /no preload links/);
});
