// dist/npm/: the package.json and the README of the npm package.

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from './common.mjs';
import { RENDER_DEPENDENCIES } from './render.mjs';

/** The elements' manifest, in the package and in the folder (manifest.mjs). */
export const MANIFEST = 'custom-elements.json';
/** VS Code's HTML custom data for the elements, in the package (vscode.mjs). */
export const VSCODE_HTML_DATA = 'vscode.html-custom-data.json';

/** The renderer's dependencies at the exact versions this repository tests (its devDependencies). */
function renderDependencies() {
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
  return Object.fromEntries(RENDER_DEPENDENCIES.map((name) => [name, own[name]]));
}

export function npmPackage(v) {
  return {
    name: 'transformer-block',
    version: v,
    description:
      'Custom elements (<tb-…>) for lessons on the transformer block: exact parameter counts, FLOPs and a running TinyGPT, computed by a Rust library compiled to WebAssembly.',
    license: 'MIT',
    type: 'module',
    main: './index.js',
    module: './index.js',
    types: './index.d.ts',
    // Where tools (editors, documentation viewers, linters) find the elements' manifest.
    customElements: MANIFEST,
    exports: {
      '.': { types: './index.d.ts', default: './index.js' },
      // One element alone: importing it defines that element and nothing else (its chunks, with
      // the wasm inlined in one of them, are shared by the others imported the same way).
      './elements/*.js': { types: './elements/element.d.ts', default: './elements/*.js' },
      // The renderer for Node: the elements' first render written into a page (render.js).
      './render': { types: './render.d.ts', default: './render.js' },
      // Each element's attributes typed for a framework's templates (framework-types.mjs).
      './jsx': { types: './types/jsx.d.ts' },
      './vue': { types: './types/vue.d.ts' },
      './svelte': { types: './types/svelte.d.ts' },
      './transformer-block.js': './transformer-block.js',
      './package.json': './package.json',
      [`./${MANIFEST}`]: `./${MANIFEST}`,
      [`./${VSCODE_HTML_DATA}`]: `./${VSCODE_HTML_DATA}`,
    },
    // npx transformer-block render 'site/**/*.html'
    bin: { 'transformer-block': './cli.js' },
    dependencies: renderDependencies(),
    unpkg: './transformer-block.js',
    jsdelivr: './transformer-block.js',
    files: ['index.js', 'index.d.ts', 'render.js', 'render.d.ts', 'page-worker.js', 'cli.js', 'types', 'elements', 'chunks', 'transformer-block.js', MANIFEST, VSCODE_HTML_DATA, 'README.md'],
    // Importing the module defines the custom elements: a bundler must not drop it.
    sideEffects: true,
    keywords: ['transformer', 'gpt', 'web-components', 'custom-elements', 'webassembly', 'education'],
  };
}

export function npmReadme(v, elements) {
  return `# transformer-block ${v}

Custom elements for lessons on the transformer block. Every number is computed by a Rust library
compiled to WebAssembly; the wasm bytes are inside the JavaScript, so there is nothing else to copy,
serve or configure.

## In a bundled site

\`\`\`js
import 'transformer-block';            // defines every element
// or: import { TbAnatomy, wasm } from 'transformer-block';
\`\`\`

One element alone, and only it is defined (the others' code stays out of the bundle):

\`\`\`js
import 'transformer-block/elements/param-table.js';   // <tb-param-table>
\`\`\`

The modules: ${[...new Set(elements.map((e) => `\`elements/${basename(e.file)}\``))].join(', ')}.

## With one script tag (no bundler)

\`\`\`html
<script src="transformer-block.js"></script>   <!-- a classic script: no type="module" -->
<tb-anatomy model="gpt2-small" seq-len="8"></tb-anatomy>
\`\`\`

Elements: ${elements.map((e) => `\`<${e.tag}>\``).join(', ')}.

Content-Security-Policy: the widgets need no inline script or style and no eval; WebAssembly needs
\`script-src 'wasm-unsafe-eval'\`.

## Types for React, Preact, Solid, Vue and Svelte

Every attribute typed with its allowed values, so a misspelt attribute or preset fails to compile.
Once, in any \`.d.ts\` of your project (or in tsconfig's \`types\`):

\`\`\`ts
import type {} from 'transformer-block/jsx';      // React 19, Preact, Solid
import type {} from 'transformer-block/vue';      // Vue templates
import type {} from 'transformer-block/svelte';   // Svelte
\`\`\`

## Figures in your HTML, rendered in Node

After your site's build, write each element's first render into its pages (declarative shadow
DOM), so the figures show before any script runs:

\`\`\`sh
npx transformer-block render 'site/**/*.html'
\`\`\`

or \`import { render } from 'transformer-block/render'; html = await render(html, { url })\`.

## In an editor

\`${MANIFEST}\` describes every element: its attributes (allowed values, defaults), its
\`tb-ready\` event and the \`--tb-*\` CSS custom properties that theme it; \`index.d.ts\` is made
from it. For VS Code's completion and hover on the tags and their attributes, in
\`.vscode/settings.json\`:

\`\`\`json
{ "html.customData": ["./node_modules/transformer-block/${VSCODE_HTML_DATA}"] }
\`\`\`
`;
}

/** dist/npm/elements/element.d.ts: the types of `import 'transformer-block/elements/NAME.js'`. */
export const ELEMENT_DTS = `// Importing transformer-block/elements/NAME.js defines that element and nothing else. The classes
// and HTMLElementTagNameMap are declared in the package's index.d.ts.
/// <reference path="../index.d.ts" />
export {};
`;
