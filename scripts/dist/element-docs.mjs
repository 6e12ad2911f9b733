// A docs page per element in the gallery (www/gallery/tb-NAME.html, not committed: make dist writes
// them from the elements' manifest, before the prerender), with Web Awesome's component pages as
// the model: what the element shows, a live example with a copy button, a snippet for each way to
// embed it (one file, the folder's autoloader, npm, React 19, Vue, Svelte), its attributes (type,
// allowed values, default), its events under each framework's name, its CSS custom properties.
//
//   node scripts/dist/element-docs.mjs      reads dist/npm/custom-elements.json (make dist's)
//
// The gallery speaks English; each widget on these pages speaks its reader's page language as
// everywhere. Tested by tests/e2e/element-docs.spec.js (every attribute the manifest names is on
// its page; the copy button copies).

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, WWW } from './common.mjs';
import { manifestElements } from './manifest.mjs';

/** Each element's example: what its live example shows and its snippets write. */
export const EXAMPLES = {
  'tb-ablation': '<tb-ablation mode="removed"></tb-ablation>',
  'tb-anatomy': '<tb-anatomy model="gpt2-small" seq-len="8"></tb-anatomy>',
  'tb-attention': '<tb-attention text="attention mixes"></tb-attention>',
  'tb-cost-chart': '<tb-cost-chart model="gpt2-small" seq-len="1024"></tb-cost-chart>',
  'tb-depth-latency': '<tb-depth-latency></tb-depth-latency>',
  'tb-example': '<tb-example name="layernorm"></tb-example>',
  'tb-masks': '<tb-masks tokens="4"></tb-masks>',
  'tb-memory': '<tb-memory model="llama3-8b" seq-len="8192"></tb-memory>',
  'tb-moe': '<tb-moe></tb-moe>',
  'tb-norm-race': '<tb-norm-race></tb-norm-race>',
  'tb-number': '<p>GPT-2 small has <tb-number model="gpt2-small" value="total_params"></tb-number> parameters.</p>',
  'tb-param-table': '<tb-param-table model="llama3-8b"></tb-param-table>',
  'tb-stream': '<tb-stream></tb-stream>',
  'tb-tiny-gpt': '<tb-tiny-gpt text="the residual stream"></tb-tiny-gpt>',
  'tb-train': '<tb-train steps="300"></tb-train>',
  'tb-training-cost': '<tb-training-cost params="8e9"></tb-training-cost>',
};

const escape = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** "'a' | 'b' | string" -> the allowed values, said for a reader. */
export function allowedValues(type = 'string') {
  const literals = [...type.matchAll(/'([^']*)'/g)].map((m) => m[1]);
  if (literals.length === 0) return type === 'number' ? 'a number' : 'text';
  const listed = literals.map((v) => `<code>${escape(v)}</code>`).join(', ');
  return /\|\s*string\s*$/.test(type) ? `one of ${listed}, or a config.json's text` : `one of ${listed}`;
}

/** The example's element alone (the <tb-…> tag of a sentence's example), as HTML. */
const exampleTag = (tag) => new RegExp(`<${tag}[^>]*></${tag}>`).exec(EXAMPLES[tag])[0];
/** The same as a self-closing JSX element. */
const jsxTag = (tag) => exampleTag(tag).replace(/><\/tb-[a-z-]+>$/, ' />');

/** The snippets of the ways to embed, [title, language, code]. */
function snippets(tag, module) {
  const example = EXAMPLES[tag];
  const name = module.replace(/^elements\//, '');
  return [
    ['One file', 'html', `<script src="transformer-block.js"></script>\n${example}`],
    ['The folder, with its autoloader', 'html', `<script type="module" src="transformer-block/autoloader.js"></script>\n${example}`],
    ['npm', 'js', `import 'transformer-block/elements/${name}';\n// in the page:\n// ${example}`],
    ['React 19', 'tsx', `import 'transformer-block/elements/${name}';\nimport type {} from 'transformer-block/jsx';\n\nexport const Figure = () => ${jsxTag(tag)};`],
    [
      'Vue',
      'vue',
      `<script setup lang="ts">\nimport 'transformer-block/elements/${name}';\n</script>\n<template>\n  ${exampleTag(tag)}\n</template>\n<!-- vite.config: vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('tb-') } } });\n     types, in any .d.ts: import type {} from 'transformer-block/vue'; -->`,
    ],
    ['Svelte', 'svelte', `<script lang="ts">\n  import 'transformer-block/elements/${name}';\n</script>\n${exampleTag(tag)}\n<!-- types, in any .d.ts: import type {} from 'transformer-block/svelte'; -->`],
  ];
}

/** A <pre> with its copy button; `id` names the code the button copies. */
const copyable = (id, code, label) =>
  `<div class="snippet"><pre><code id="${id}">${escape(code)}</code></pre><button type="button" data-copy="${id}" aria-label="Copy ${escape(label)}">Copy</button></div>`;

function attributesTable(attributes) {
  if (attributes.length === 0) return '<p>No attributes: it is configured by the page around it.</p>';
  const rows = attributes.map(
    (a) =>
      `<tr data-attribute="${escape(a.name)}"><th scope="row"><code>${escape(a.name)}</code></th><td>${allowedValues(a.type?.text)}</td><td>${a.default === undefined ? '—' : `<code>${escape(a.default)}</code>`}</td><td>${escape(a.description ?? '')}</td></tr>`,
  );
  return `<div class="table-scroll" tabindex="0" role="group" aria-label="Attributes"><table><thead><tr><th scope="col">Attribute</th><th scope="col">Values</th><th scope="col">Default</th><th scope="col">What it does</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function eventsTable(events) {
  const rows = events.map(
    (ev) =>
      `<tr data-event="${escape(ev.name)}"><th scope="row"><code>${escape(ev.name)}</code></th><td><code>addEventListener('${escape(ev.name)}', …)</code></td><td><code>on${escape(ev.name)}={…}</code></td><td><code>@${escape(ev.name)}="…"</code></td><td><code>on${escape(ev.name)}={…}</code></td><td>${escape(ev.description ?? '')}</td></tr>`,
  );
  return `<div class="table-scroll" tabindex="0" role="group" aria-label="Events"><table><thead><tr><th scope="col">Event</th><th scope="col">JavaScript</th><th scope="col">React 19</th><th scope="col">Vue</th><th scope="col">Svelte 5</th><th scope="col">When</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function cssTable(properties) {
  const rows = properties.map(
    (p) => `<tr data-css-property="${escape(p.name)}"><th scope="row"><code>${escape(p.name)}</code></th><td><code>${escape(p.default ?? '')}</code></td><td>${escape(p.description ?? '')}</td></tr>`,
  );
  return `<div class="table-scroll" tabindex="0" role="group" aria-label="CSS custom properties"><table><thead><tr><th scope="col">Property</th><th scope="col">Default</th><th scope="col">What it colours or sets</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** One element's page. */
export function elementPage({ decl, module }) {
  const tag = decl.tagName;
  const what = decl.summary ?? decl.description ?? '';
  const ways = snippets(tag, module.path)
    .map(([title, , code], i) => `<h3>${escape(title)}</h3>\n${copyable(`${tag}-way-${i}`, code, `the ${title} snippet`)}`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">
  <title>&lt;${tag}&gt; · transformer-block gallery</title>
  <meta name="description" content="${escape(`<${tag}>: ${what}`)}">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="../styles.css">
  <script type="module" src="../src/${module.path}"></script>
  <script type="module" src="copy-snippets.js"></script>
</head>
<body>
  <main class="element-docs">
    <p><a href="index.html">Widget gallery</a></p>
    <h1><code>&lt;${tag}&gt;</code></h1>
    <p>${escape(what)}</p>
    <h2>Live example</h2>
    ${EXAMPLES[tag]}
    ${copyable(`${tag}-example`, EXAMPLES[tag], 'the example')}
    <h2>Embed it</h2>
    ${ways}
    <h2>Attributes</h2>
    ${attributesTable(decl.attributes ?? [])}
    <h2>Events</h2>
    ${eventsTable(decl.events ?? [])}
    <h2>CSS custom properties</h2>
    ${cssTable(decl.cssProperties ?? [])}
    <p class="copy-status" role="status"></p>
  </main>
</body>
</html>
`;
}

/** Every element's page into www/gallery/, an earlier build's pages of elements gone removed. */
export function writeElementDocs(manifest) {
  const elements = manifestElements(manifest);
  const missing = elements.filter(({ decl }) => !EXAMPLES[decl.tagName]).map(({ decl }) => decl.tagName);
  if (missing.length) throw new Error(`no example for ${missing.join(', ')}: add one to EXAMPLES in scripts/dist/element-docs.mjs`);
  for (const { decl } of elements) {
    const names = new Set((decl.attributes ?? []).map((a) => a.name));
    for (const [, name] of exampleTag(decl.tagName).matchAll(/\s([a-z-]+)="/g)) {
      if (!names.has(name)) throw new Error(`the example of <${decl.tagName}> sets ${name}, which is not one of its attributes (${[...names].join(', ')})`);
    }
  }
  const gallery = join(WWW, 'gallery');
  const written = new Set();
  for (const element of elements) {
    const file = `${element.decl.tagName}.html`;
    writeFileSync(join(gallery, file), elementPage(element));
    written.add(file);
  }
  for (const file of readdirSync(gallery)) if (/^tb-[a-z-]+\.html$/.test(file) && !written.has(file)) rmSync(join(gallery, file));
  return [...written];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = JSON.parse(readFileSync(join(DIST, 'npm', 'custom-elements.json'), 'utf8'));
  console.log(`element-docs: ${writeElementDocs(manifest).length} pages in www/gallery/`);
}
