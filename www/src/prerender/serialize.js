// What a widget's first render is as HTML: the one serialiser the build's prerender
// (scripts/prerender.mjs) and the hydration tests use, so both read a render the same way.
//
// `widgetMarkup` runs in the page (Playwright passes its source to page.evaluate, so it refers to
// nothing outside itself). For every <tb-…> element of the document, in document order, it returns
//
//   { tag, html, sheets, inline }
//
// html: its shadow root's children as HTML; sheets: the text of each stylesheet the root adopted
// (the theme first; the text it was made from, theme.js' SOURCE), then, if the render set any element's style from script, one sheet holding
// those declarations; inline: whether the element sits inside a sentence (its class's static
// `inline`: it needs none of the theme's box).
//
// Two things a render sets are not markup, so they are written in: controls' current values
// (value, checked, selected are properties, which serialisation leaves out) become their attributes
// (what defaultValue, defaultChecked and defaultSelected reflect: set as attributes, which every DOM
// writes, Node's too), and a style set from script (el.style.height = …) becomes a rule for a data-tb-style
// attribute (a style="" attribute in markup is refused by a strict style-src; a stylesheet is not).
// Canvas pixels are not markup: a canvas comes out blank. What the reader's own browser holds is not
// the page's either (a checkpoint it keeps: checkpoint-shown.js): an element marked
// data-browser-state comes out empty, and the live render fills it.

export function widgetMarkup() {
  const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-') && el.shadowRoot);
  const cssText = (sheet) => sheet[Symbol.for('transformer-block.css')] ?? [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
  return widgets.map((el) => {
    const root = el.shadowRoot;
    for (const input of root.querySelectorAll('input')) {
      if (input.type === 'checkbox' || input.type === 'radio') input.toggleAttribute('checked', input.checked);
      else if (input.type !== 'file') input.setAttribute('value', input.value);
    }
    for (const area of root.querySelectorAll('textarea')) area.textContent = area.value;
    for (const option of root.querySelectorAll('option')) option.toggleAttribute('selected', option.selected);

    const copy = document.createElement('div');
    copy.append(...[...root.childNodes].map((node) => node.cloneNode(true)));
    for (const node of copy.querySelectorAll('[data-browser-state]')) node.replaceChildren();
    const rules = [...copy.querySelectorAll('[style]')].map((node, i) => {
      const declarations = node.style.cssText.replace(/;?\s*$/, '').split(/;\s*/).map((d) => `${d} !important`);
      node.removeAttribute('style');
      node.setAttribute('data-tb-style', String(i));
      return `[data-tb-style="${i}"] { ${declarations.join('; ')}; }`;
    });
    const sheets = root.adoptedStyleSheets.map(cssText);
    if (rules.length) sheets.push(rules.join('\n'));
    return { tag: el.localName, html: copy.getHTML(), sheets, inline: Boolean(el.constructor.inline) };
  });
}

/**
 * The parts of the page outside any widget that a page script fills from the wasm (marked
 * data-prerender, with an id: the lesson's table of presets and its status line), in page.evaluate:
 * { regions: [{ id, html }], sheets }, html each one's outer HTML, sheets the text of each
 * stylesheet the document adopted (the table's card layout).
 */
export function pageMarkup() {
  const cssText = (sheet) => sheet[Symbol.for('transformer-block.css')] ?? [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
  const regions = [...document.querySelectorAll('[data-prerender][id]')].map((el) => ({ id: el.id, html: el.outerHTML }));
  return { regions, sheets: document.adoptedStyleSheets.map(cssText) };
}
