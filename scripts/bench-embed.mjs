// `make bench`, the embed: what a page with one widget costs a reader, each way an author embeds
// the widgets (README, "Embed"), in bytes gzipped (level 6), the page itself aside:
//   folder    dist/transformer-block/ by its autoloader: the modules and the wasm build it fetched,
//             measured in Chromium on a made-up course site (scripts/dist/course-site.mjs)
//   one file  dist/transformer-block.js, whatever the page holds
//   npm       `import 'transformer-block/elements/NAME.js'` bundled and minified by esbuild, as a
//             site's build would (the wasm inlined in it, as in the one file)
//
//   const rows = await embedBytes(browser);  // [{ tag, folder: { bytes, files, wasm }, one_file, npm }]

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { DIST } from './dist/common.mjs';
import { SITE, assertBuilt, autoloaded, pageBytes, serveCourse } from './dist/course-site.mjs';

/** The widgets measured: analytic ones, the two that read TinyGPT, two that run it. */
export const EMBED_WIDGETS = ['param-table', 'masks', 'anatomy', 'attention', 'tiny-gpt', 'train', 'ablation'];

/** Gzipped bytes of `import 'transformer-block/elements/NAME.js'` bundled by esbuild from dist/npm. */
async function npmBytes(name) {
  const site = mkdtempSync(join(tmpdir(), 'tb-embed-'));
  try {
    mkdirSync(join(site, 'node_modules'));
    symlinkSync(join(DIST, 'npm'), join(site, 'node_modules', 'transformer-block'), 'dir');
    const built = await esbuild.build({
      stdin: { contents: `import 'transformer-block/elements/${name}.js';`, resolveDir: site },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    return gzipSync(built.outputFiles[0].contents).length;
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}

/** What a page with one `<tb-NAME>` fetches through the autoloaded folder, once the widget shows. */
async function folderBytes(browser, name) {
  const context = await browser.newContext();
  try {
    const asked = await serveCourse(context, { '/page.html': autoloaded(`<tb-${name}></tb-${name}>`) });
    const page = await context.newPage();
    await page.goto(`${SITE}/page.html`);
    await page.waitForFunction((tag) => document.querySelector(tag)?.rendered, `tb-${name}`);
    await page.evaluate((tag) => document.querySelector(tag).rendered, `tb-${name}`);
    await page.waitForLoadState('networkidle');
    const { bytes, files, paths } = pageBytes(asked, '/page.html');
    return { bytes, files, wasm: paths.filter((p) => p.endsWith('.wasm')).map((p) => p.split('/').pop()) };
  } finally {
    await context.close();
  }
}

export async function embedBytes(browser) {
  assertBuilt();
  const oneFile = gzipSync(readFileSync(join(DIST, 'transformer-block.js'))).length;
  const rows = [];
  for (const name of EMBED_WIDGETS) {
    rows.push({ tag: `tb-${name}`, folder: await folderBytes(browser, name), one_file: oneFile, npm: await npmBytes(name) });
  }
  return rows;
}
