// A course site built with Eleventy: the transformer-block folder beside the pages (copied in by
// the build), its autoloader in the layout, and each page's figures written into its HTML by the
// renderer after the build (eleventy.after), so they show before any script runs.
import { writeFile } from 'node:fs/promises';
import { render } from 'transformer-block/render';

export default function (eleventyConfig) {
  // The folder `make dist` writes (dist/transformer-block/); in a course repository, wherever you keep it.
  eleventyConfig.addPassthroughCopy({ [process.env.TB_FOLDER ?? 'transformer-block']: 'transformer-block' });
  eleventyConfig.on('eleventy.after', async ({ results }) => {
    for (const { outputPath, content } of results) {
      if (outputPath?.endsWith('.html')) await writeFile(outputPath, await render(content, { name: outputPath }));
    }
  });
  return { dir: { input: 'src', output: '_site' } };
}
