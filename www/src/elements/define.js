// Whether an element module defines its tag, at its end:
//
//   if (defines(TAG, Element)) customElements.define(TAG, Element);   // TAG written out: 'tb-masks'
//
// (the call written out, where the elements' manifest analyzer and make dist look for it). Safe
// where there is no DOM, and where another copy of transformer-block got there first.

const COPIES = Symbol.for('transformer-block.copies'); // said once a page: another copy defined our tags

/**
 * Whether `<name>` is to be defined as `element` now: not where there are no custom elements (Node);
 * not where the tag is already defined, by this class or by another copy of transformer-block (two
 * builds on one page, a bundler that took the package twice), whose element stays while the
 * console says so, once a page.
 */
export function defines(name, element) {
  const registry = globalThis.customElements;
  if (!registry) return false;
  const there = registry.get(name);
  if (!there) return true;
  if (there !== element && !globalThis[COPIES]) {
    globalThis[COPIES] = true;
    console.warn(`transformer-block: <${name}> is already defined by another copy of transformer-block on this page; its elements are kept, and this copy (${import.meta.url}) defines none.`);
  }
  return false;
}
