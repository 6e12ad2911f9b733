// The widgets' shared stylesheet, adopted by every shadow root (a constructable stylesheet: no
// <style> element, no inline style, so a strict Content-Security-Policy allows it).
//
// Theming: a host page sets these custom properties on the element or any ancestor; they cross the
// shadow boundary. Unset, each falls back to a light or dark default (prefers-color-scheme).
//
//   --tb-bg, --tb-fg, --tb-muted, --tb-rule, --tb-accent, --tb-error   colours
//   --tb-embeddings, --tb-attention, --tb-feed-forward, --tb-norms,
//   --tb-output-head, --tb-router                                      breakdown colours
//   --tb-font, --tb-font-mono, --tb-radius                             type and corners
//
// Each is documented (what it sets, its defaults) by an @cssprop on TbElement (base.js), which the
// elements' manifest gives every element; `make dist` fails when one here is not, or when a
// documented default is not the one below.

export const THEME_CSS = `
:host {
  --_bg: var(--tb-bg, #ffffff);
  --_fg: var(--tb-fg, #1d1f23);
  --_muted: var(--tb-muted, #5b6270);
  --_rule: var(--tb-rule, #d9dce2);
  --_accent: var(--tb-accent, #2557a7);
  --_error: var(--tb-error, #a11d1d);
  --_embeddings: var(--tb-embeddings, #7a5195);
  --_attention: var(--tb-attention, #2a78c2);
  --_feed-forward: var(--tb-feed-forward, #d1603d);
  --_norms: var(--tb-norms, #6b8f3a);
  --_output-head: var(--tb-output-head, #b8860b);
  --_router: var(--tb-router, #138a80);
  --_font: var(--tb-font, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif);
  --_mono: var(--tb-font-mono, ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace);
  --_radius: var(--tb-radius, 8px);
  display: block;
  /* What changes inside a widget is laid out inside it: a slider's redraw does not relayout the page. */
  contain: layout;
  box-sizing: border-box;
  max-width: 100%;
  margin: 1rem 0;
  padding: 0.75rem;
  border: 1px solid var(--_rule);
  border-radius: var(--_radius);
  background: var(--_bg);
  color: var(--_fg);
  font: 0.95rem/1.5 var(--_font);
  overflow-wrap: anywhere;
}
@media (prefers-color-scheme: dark) {
  :host {
    --_bg: var(--tb-bg, #1b1e23);
    --_fg: var(--tb-fg, #e6e8ec);
    --_muted: var(--tb-muted, #a3aab6);
    --_rule: var(--tb-rule, #3a3f4a);
    --_accent: var(--tb-accent, #8ab4f8);
    --_error: var(--tb-error, #ffb4b4);
    --_embeddings: var(--tb-embeddings, #c39bd3);
    --_attention: var(--tb-attention, #7fb8ee);
    --_feed-forward: var(--tb-feed-forward, #f0a07f);
    --_norms: var(--tb-norms, #a8cf74);
    --_output-head: var(--tb-output-head, #e6c15c);
    --_router: var(--tb-router, #6fd3c8);
  }
}
:host([hidden]) { display: none; }
/* A host page's "* { all: unset !important }" reaches :host itself, so give its children what they
   would have inherited; in a layer, so every unlayered rule of a widget (a heading's size) still wins. */
@layer inherited {
  :host > * { color: var(--_fg); font: 0.95rem/1.5 var(--_font); overflow-wrap: anywhere; }
}
*, *::before, *::after { box-sizing: border-box; }
h2, h3, h4 { margin: 0 0 0.5rem; line-height: 1.25; font-size: 1.05rem; }
p { margin: 0.4rem 0; }
.muted { color: var(--_muted); }
/* A line of this browser's state (where it measures), empty in a prerender: it keeps its line. */
p[data-browser-state]:empty::before { content: '\\200b'; }
.num { font-variant-numeric: tabular-nums; text-align: right; }
code, .mono { font-family: var(--_mono); font-size: 0.92em; }
.error {
  margin: 0 0 0.5rem;
  padding: 0.4rem 0.6rem;
  border-left: 4px solid var(--_error);
  color: var(--_error);
}
.controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin-bottom: 0.5rem; }
label { display: inline-flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; }
input, select, button {
  font: inherit;
  color: inherit;
  background: var(--_bg);
  border: 1px solid var(--_rule);
  border-radius: calc(var(--_radius) / 2);
  padding: 0.2rem 0.4rem;
  min-height: 2rem;
}
select { max-width: 100%; }
input[type="range"] { padding: 0; accent-color: var(--_accent); min-width: 8rem; flex: 1 1 10rem; }
input[type="number"] { width: 7rem; }
button { cursor: pointer; }
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--_rule); text-align: left; vertical-align: top; }
.scroll { overflow-x: auto; max-width: 100%; }
svg { display: block; max-width: 100%; height: auto; overflow: visible; }
svg text { fill: currentColor; font-family: var(--_font); }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
`;

let shared;

/** The one CSSStyleSheet every widget adopts. */
export function themeSheet() {
  shared ??= sheet(THEME_CSS);
  return shared;
}

/**
 * Where a sheet keeps the text it was made from, compacted: the prerender
 * (www/src/prerender/serialize.js) writes that text, not the browser's reading of it back, so
 * Chromium's prerender and the renderer in Node (whose DOM reads CSS back differently) write the
 * same sheet.
 */
export const SOURCE = Symbol.for('transformer-block.css');

/**
 * CSS without its comments and layout whitespace, for the prerendered pages' bytes: runs of white
 * space become one space (our sheets put none that matters inside a string), and none is kept next
 * to { } ; or after a line's start. Selectors keep their spaces (a descendant combinator is one).
 */
export function compactCss(css) {
  return css
    .replace(/\/\*[^]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .trim();
}

/**
 * A stylesheet of a widget's own, made once per widget class. Where there is no CSSStyleSheet (Node,
 * importing the package to render pages), its text alone: `{ cssText }`, which no one adopts there.
 */
export function sheet(css) {
  if (typeof CSSStyleSheet !== 'function') return { cssText: css };
  const s = new CSSStyleSheet();
  s.replaceSync(css);
  s[SOURCE] = compactCss(css);
  return s;
}
