// dist/transformer-block/autoloader.js: the one tag of the folder build (`make dist`,
// scripts/dist/folder.mjs). It finds the <tb-…> elements of the page, and those added later, and
// imports each one's module from beside itself (elements/NAME.js, which imports the chunks it shares
// with the others); the build of the wasm they need (wasm.js: library) and a language's catalog
// come as those modules ask for them. So a page pays for the widgets it shows.
//
//   <script type="module" src="…/transformer-block/autoloader.js"></script>
//
// So that the page does not wait for each file to ask for the next (autoloader, module, its chunks,
// the wasm), it asks at once for all a widget's module imports (<link rel="modulepreload">) and for
// the wasm build(s) the page's first renders will fetch (<link rel="preload" as="fetch">, the build
// told from the markup as wasm.js will tell it: facade-needs.js), which wasm.js's fetch then takes.
//
// __TB_FOLDER__ is written in by the build: { elements: { tag: { module, need, chunks } }, facades:
// { need: { glue, wasm } } }, paths in the folder. Loaded twice (two tags, two copies of the
// folder), the second does nothing. A tag that is not one of ours, or a module that cannot be
// fetched, is said once in the console; the page's markup stays (a prerendered widget keeps its
// figures).

/* global __TB_FOLDER__ */
import { pageFacades } from './facade-needs.js';

const { elements: ELEMENTS, facades: FACADES } = __TB_FOLDER__;
const ONCE = Symbol.for('transformer-block.autoloader');

// Only on a page: imported where there is no document (Node, a site's build), it does nothing.
if (typeof document !== 'undefined' && !globalThis[ONCE]) {
  globalThis[ONCE] = import.meta.url;
  const asked = new Set();
  const hinted = new Set();
  // A <link> that has the browser fetch `path` (in the folder) now, for a module or fetch to take.
  const hint = (path, as) => {
    if (hinted.has(path)) return;
    hinted.add(path);
    const link = document.createElement('link');
    link.href = new URL(path, import.meta.url).href;
    if (as === 'module') link.rel = 'modulepreload';
    else Object.assign(link, { rel: 'preload', as, crossOrigin: 'anonymous' });
    document.head.append(link);
  };
  const load = (tag) => {
    if (asked.has(tag)) return;
    asked.add(tag);
    const element = ELEMENTS[tag];
    if (!element) {
      console.warn(`transformer-block: <${tag}> is not one of its elements (${Object.keys(ELEMENTS).join(', ')}); it is left as it is.`);
      return;
    }
    const url = new URL(element.module, import.meta.url).href;
    for (const chunk of element.chunks) hint(chunk, 'module');
    import(url).catch((err) => {
      console.error(`transformer-block: the module of <${tag}> could not be loaded from ${url} (${err.message}); what the page already shows stays.`);
    });
  };
  const find = (root) => {
    if (root.localName?.startsWith('tb-')) load(root.localName);
    for (const el of root.querySelectorAll?.('*') ?? []) if (el.localName.startsWith('tb-')) load(el.localName);
  };
  // The page as it is now: the wasm its first renders fetch. (Widgets added later ask for theirs.)
  for (const need of pageFacades(document, (el) => ELEMENTS[el.localName]?.need)) {
    hint(FACADES[need].wasm, 'fetch');
    hint(FACADES[need].glue, 'module');
  }
  find(document);
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) find(node);
  }).observe(document, { childList: true, subtree: true });
}
