// dist/npm/vscode.html-custom-data.json: VS Code's HTML custom data for the elements, made from
// custom-elements.json by custom-element-vs-code-integration (getVsCodeHtmlCustomData), so the
// editor completes the <tb-…> tags, their attributes and an attribute's allowed values, and shows
// each one's description on hover. An author points VS Code at it with the setting
//   "html.customData": ["./node_modules/transformer-block/vscode.html-custom-data.json"]
//
//   { version: 1.1, tags: [{ name, description, attributes: [{ name, description, values: [{ name }] }] }] }
//
// The values come from an attribute's type ('shipped' | 'six-blocks' | …; `string` and `number`
// give none). Two changes to what the library writes: an attribute's default is added to its
// description (the format has no field for it), and a tag's description leaves out the CSS custom
// properties and methods, the same fifteen lines and update() on every tag, for its events alone.

import { getVsCodeHtmlCustomData } from 'custom-element-vs-code-integration';
import { manifestElements } from './manifest.mjs';

/** The custom data for `manifest`, as an object (JSON.stringify it to write the file). */
export function vscodeHtmlData(manifest) {
  const data = JSON.parse(getVsCodeHtmlCustomData(manifest, { hideLogs: true, hideCssPropertiesDocs: true, hideMethodDocs: true }));
  const decls = manifestElements(manifest).map(({ decl }) => decl);
  for (const tag of data.tags) {
    const decl = decls.find((d) => d.tagName === tag.name);
    for (const attr of tag.attributes) {
      const fallback = decl?.attributes?.find((a) => a.name === attr.name)?.default;
      if (fallback !== undefined) attr.description = `${attr.description ?? ''} Default: ${fallback}.`.trim();
    }
    if (tag.references?.length === 0) delete tag.references;
  }
  return data;
}
