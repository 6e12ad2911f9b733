// What an element does when it takes over its prerendered DOM (base.js): keep the keyboard focus
// where the reader had it, and replay what the reader did in that DOM before the element's script
// arrived (clicks, input) on the live render, by place in the tree.

/**
 * The control that has the keyboard focus inside `root`, if any: { restore() } puts the focus back
 * on it after a render replaced it, on the new control with the same id (or the same label), so a
 * keyboard or screen-reader user stays where they were. A render that kept the control changes nothing.
 */
export function focusedControl(root) {
  const el = root.activeElement;
  if (!el) return null;
  const label = el.getAttribute('aria-label');
  const selector = el.id ? `#${CSS.escape(el.id)}` : label ? `${el.localName}[aria-label="${CSS.escape(label)}"]` : null;
  return {
    restore() {
      if (el.isConnected || !selector) return;
      root.querySelector(selector)?.focus({ preventScroll: true });
    },
  };
}

/** What a click before the takeover is replayed on: buttons, links, disclosures, and the parts a widget's diagram or list lets the reader pick. */
export const CLICKABLE = 'button, summary, a[href], [role="option"], [role="button"], [role="tab"], [data-key]';

/** A stylesheet the prerender put at the top of a shadow root (a live element adopts its sheets instead). */
export function isPrerenderedSheet(node) {
  return node.localName === 'style' || (node.localName === 'link' && node.rel === 'stylesheet');
}

/**
 * The child nodes of `parent` that a render makes: under the shadow root `root`, the prerender's
 * stylesheets are left out (counting them would put a place in the prerendered DOM one node off in
 * the live one).
 */
function made(parent, root) {
  const nodes = [...parent.childNodes];
  return parent === root ? nodes.filter((n) => !isPrerenderedSheet(n)) : nodes;
}

/** The child indices that lead from `root` to `node`, among the nodes a render makes (made). */
export function pathIn(root, node) {
  const path = [];
  for (let n = node; n && n !== root; n = n.parentNode) path.unshift(made(n.parentNode, root).indexOf(n));
  return path;
}

/** The node at `path` (from pathIn) under `root`, if there is one: the same place in a render that made the same DOM. */
function atPath(root, path) {
  let n = root;
  for (const i of path) n = n && made(n, root)[i];
  return n ?? null;
}

/**
 * One thing the reader did in the prerendered DOM, done again on the live render: a click on the
 * node at the same place, or the control there given the prerendered control's value (its files,
 * for a file field) and the same event.
 */
export function replay(root, { type, path, source }) {
  const node = atPath(root, path);
  if (!node) return;
  if (type === 'click') {
    node.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
    return;
  }
  if (node.localName !== source.localName) return;
  if (source.type === 'checkbox' || source.type === 'radio') node.checked = source.checked;
  else if (source.type === 'file') node.files = source.files;
  else node.value = source.value;
  node.dispatchEvent(new Event(type, { bubbles: true }));
}
