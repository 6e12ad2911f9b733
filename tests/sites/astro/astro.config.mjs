// A course site built with Astro: the page imports the elements from the npm package in a <script>
// (Astro bundles it for the browser), and a small integration writes each page's figures into its
// HTML with the renderer once the build is done (astro:build:done).
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { render } from 'transformer-block/render';

const figuresInHtml = {
  name: 'transformer-block-render',
  hooks: {
    'astro:build:done': async ({ dir, pages }) => {
      for (const { pathname } of pages) {
        const file = fileURLToPath(new URL(`${pathname}index.html`, dir));
        await writeFile(file, await render(await readFile(file, 'utf8'), { name: file }));
      }
    },
  },
};

export default { integrations: [figuresInHtml] };
