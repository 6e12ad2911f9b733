// A course site built with VitePress: the elements imported from the npm package by the theme (the
// import is safe in the server render: it defines nothing there), Vue told that tb- tags are
// custom elements, and each page's figures written into its HTML by the renderer once the build
// has written the pages (buildEnd).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from 'transformer-block/render';

export default {
  title: 'The transformer block, counted',
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('tb-') } } },
  async buildEnd({ outDir, pages }) {
    for (const page of pages) {
      const file = join(outDir, page.replace(/\.md$/, '.html'));
      await writeFile(file, await render(await readFile(file, 'utf8'), { name: file }));
    }
  },
};
