// One widget's first render as the <template shadowrootmode="open"> written after its open tag:
// the one way the build's prerender (scripts/prerender.mjs) and the renderer in Node
// (www/src/render/) write a widget's markup and bring its stylesheets in.
//
//   template(widget, inlineStyles)   widget: one of serialize.js' widgetMarkup() list
//   -> '<template shadowrootmode="open"><style>…</style><h3>…</template>'

/**
 * The <template> for one widget. `stylesOf(sheets)` gives the markup that brings a list of
 * stylesheets in (links or <style> elements).
 */
export function template({ html, sheets }, stylesOf) {
  return `<template shadowrootmode="open">${stylesOf(sheets)}${html}</template>`;
}

/** Each stylesheet in a <style> of its own. */
export const inlineStyles = (sheets) => sheets.map((css) => `<style>${css.replaceAll('</', '<\\/')}</style>`).join('');

/**
 * A widget in a sentence shown as its text alone (a tb-number's number) needs no stylesheet: it reads
 * as the sentence does until its script styles it (tabular digits). A hundred and more links, one
 * a number, were a tenth of the lesson's elements.
 */
export const textOnly = (w) => (w.inline && !w.html.includes('<') ? { ...w, sheets: [] } : w);

/**
 * Where a page's stylesheets are inlined, a widget in a sentence (tb-number) carries only its own
 * sheet: one copy of the theme for each of the lesson's 163 numbers would cost 11 KB of its gzip.
 */
export const ownSheetsInline = (w) => (w.inline ? { ...w, sheets: w.sheets.slice(1) } : w);
