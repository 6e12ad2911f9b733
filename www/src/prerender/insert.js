// Where the prerender's templates go in a page's source: right after each <tb-…> open tag, in
// document order (the order the browser found the widgets in). Scripts, styles, comments and
// templates are skipped, so a tag named inside them is not taken for a widget; a template the page
// already has there (a page prerendered before) is replaced, so running the prerender twice gives
// the same file.
//
//   insertTemplates(html, [{ tag: 'tb-masks', template: '<template …>…</template>' }, …], name) -> html
//
// A widget whose template is null is left as the source has it (the renderer in Node: a tag that is
// not one of the elements).
//
// Fails, naming the page, when the source's widgets are not the ones the browser rendered: the
// templates would land on the wrong elements.

const SKIPPED = ['script', 'style', 'template', 'textarea'];

/** The positions just after each widget's open tag: [{ tag, end }]. */
export function widgetTags(html) {
  const found = [];
  const lower = html.toLowerCase(); // once: a page has a skipped element for every template
  const tagPattern = /<!--|<(\/?)([a-zA-Z][\w-]*)\b[^>]*>/g;
  let m;
  while ((m = tagPattern.exec(html))) {
    if (m[0] === '<!--') {
      const close = html.indexOf('-->', m.index + 4);
      tagPattern.lastIndex = close < 0 ? html.length : close + 3;
      continue;
    }
    const name = m[2].toLowerCase();
    if (m[1]) continue; // a closing tag
    if (SKIPPED.includes(name)) {
      const close = lower.indexOf(`</${name}`, tagPattern.lastIndex);
      tagPattern.lastIndex = close < 0 ? html.length : close;
      continue;
    }
    if (name.startsWith('tb-')) found.push({ tag: name, end: m.index + m[0].length });
  }
  return found;
}

const EXISTING = /^<template shadowrootmode="open">/;

export function insertTemplates(html, widgets, name) {
  const tags = widgetTags(html);
  if (tags.length !== widgets.length) {
    throw new Error(`${name}: the source has ${tags.length} <tb-…> elements, the browser rendered ${widgets.length}`);
  }
  let out = '';
  let at = 0;
  tags.forEach(({ tag, end }, i) => {
    if (widgets[i].tag !== tag) throw new Error(`${name}: widget ${i + 1} is <${tag}> in the source, <${widgets[i].tag}> in the browser`);
    if (widgets[i].template === null) return;
    out += html.slice(at, end) + widgets[i].template;
    at = end;
    if (EXISTING.test(html.slice(at, at + 40))) {
      const close = closingTag(html, 'template', at);
      if (close < 0) throw new Error(`${name}: widget ${i + 1}'s existing template does not end`);
      at = close;
    }
  });
  return out + html.slice(at);
}

/**
 * The page with each region (see pageMarkup in www/src/prerender/serialize.js: { id, html }) put in
 * place of the element of that id in the source, and `head` before </head>. Fails, naming the page,
 * when a region's element is not found or does not end.
 */
export function replaceRegions(html, regions, head, name) {
  let out = html;
  for (const { id, html: markup } of regions) {
    const open = new RegExp(`<([a-zA-Z][\\w-]*)\\b[^>]*\\bid="${id}"[^>]*>`).exec(out);
    if (!open) throw new Error(`${name}: no element with id="${id}" in the source`);
    const end = closingTag(out, open[1].toLowerCase(), open.index);
    if (end < 0) throw new Error(`${name}: the element with id="${id}" does not end`);
    out = out.slice(0, open.index) + markup + out.slice(end);
  }
  if (head) {
    const at = out.search(/<\/head>/i);
    if (at < 0) throw new Error(`${name}: no </head> for the prerendered stylesheets`);
    out = out.slice(0, at) + head + out.slice(at);
  }
  return out;
}

/** The index just past the end tag of the `tag` element that opens at `from` (nesting counted). */
export function closingTag(html, tag, from) {
  const pattern = new RegExp(`<${tag}\\b|</${tag}\\s*>`, 'gi');
  pattern.lastIndex = from;
  let depth = 0;
  for (let m; (m = pattern.exec(html)); ) {
    depth += m[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return -1;
}
