// dist/transformer-block/autoloader.js: the one tag of the folder build (`make dist`,
// scripts/dist/folder.mjs). It finds the <tb-…> elements of the page, and those added later, and
// imports each one's module from beside itself (elements/NAME.js, which imports the chunks it shares
// with the others); the build of the wasm they need (wasm.js: library) and a language's catalog
// come as those modules ask for them. So a page pays for the widgets it shows.
//
//   <script type="module" src="…/transformer-block/autoloader.js"></script>
//
// __TB_ELEMENTS__ is { tag: 'elements/NAME.js' }, written in by the build from the elements there are.
// Loaded twice (two tags, two copies of the folder), the second does nothing. A tag that is not one
// of ours, or a module that cannot be fetched, is said once in the console; the page's markup stays
// (a prerendered widget keeps its figures).

/* global __TB_ELEMENTS__ */
const ELEMENTS = __TB_ELEMENTS__;
const ONCE = Symbol.for('transformer-block.autoloader');

if (!globalThis[ONCE]) {
  globalThis[ONCE] = import.meta.url;
  const asked = new Set();
  const load = (tag) => {
    if (asked.has(tag)) return;
    asked.add(tag);
    const file = ELEMENTS[tag];
    if (!file) {
      console.warn(`transformer-block: <${tag}> is not one of its elements (${Object.keys(ELEMENTS).join(', ')}); it is left as it is.`);
      return;
    }
    const url = new URL(file, import.meta.url).href;
    import(url).catch((err) => {
      console.error(`transformer-block: the module of <${tag}> could not be loaded from ${url} (${err.message}); what the page already shows stays.`);
    });
  };
  const find = (root) => {
    if (root.localName?.startsWith('tb-')) load(root.localName);
    for (const el of root.querySelectorAll?.('*') ?? []) if (el.localName.startsWith('tb-')) load(el.localName);
  };
  find(document);
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) find(node);
  }).observe(document, { childList: true, subtree: true });
}
