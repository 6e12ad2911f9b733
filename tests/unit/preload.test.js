// The lesson page asks for its whole module graph and the wasm up front (www/index.html's preload
// links): the list must be exactly what the script imports, or the page loads a module late (a
// missing link) or fetches one it never runs (a stale one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WWW, preloadLinks } from '../../scripts/module-graph.mjs';

test('www/index.html preloads exactly the modules its script imports, the glue and the wasm', () => {
  const html = readFileSync(`${WWW}index.html`, 'utf8');
  const found = [...html.matchAll(/<link rel="(?:module)?preload"[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(found, preloadLinks(), 'regenerate the links with: node scripts/module-graph.mjs');
});

test('www/fr/index.html, the French edition, preloads the same modules from one folder up', () => {
  const html = readFileSync(`${WWW}fr/index.html`, 'utf8');
  const found = [...html.matchAll(/<link rel="(?:module)?preload"[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(found, preloadLinks().map((l) => l.replace('href="', 'href="../')), 'regenerate the links in both pages');
});
