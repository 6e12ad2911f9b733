// `make bench`, the embed: what a page with one widget costs a reader, each way an author embeds
// the widgets (docs/embedding.md), in bytes gzipped (level 6), the page itself aside:
//   folder    dist/transformer-block/ by its autoloader: the modules and the wasm build it fetched,
//             measured in Chromium on a made-up course site (scripts/dist/course-site.mjs)
//   one file  dist/transformer-block.js, whatever the page holds
//   npm       `import 'transformer-block/elements/NAME.js'` bundled and minified by esbuild, as a
//             site's build would (the wasm inlined in it, as in the one file)
//
// And how soon the widget shows its figures each way, folder against one file: from navigation start
// to the element's `rendered` (its first render done), median of `loads` cold loads, each twice:
// every file served at once by the harness (no network delay: what is measured is the page's own
// work), and over a modelled phone's network (scripts/dist/network-model.mjs: MOBILE), where the
// folder's chain of requests and the one file's bytes both cost.
//
//   const rows = await embedBytes(browser, { loads });
//   // [{ tag, folder: { bytes, files, wasm, rendered_ms, mobile_ms }, one_file, one_file_rendered_ms,
//   //    one_file_mobile_ms, npm }]

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from './dist/common.mjs';
import { MOBILE, networkModel } from './dist/network-model.mjs';
import { SITE, assertBuilt, autoloaded, bundledElement, oneFile, pageBytes, serveCourse } from './dist/course-site.mjs';

/** The widgets measured: analytic ones, the two that read TinyGPT, two that run it. */
export const EMBED_WIDGETS = ['param-table', 'masks', 'anatomy', 'attention', 'tiny-gpt', 'train', 'ablation'];

/**
 * A cold load of `html` (a page with one `<tb-NAME>`) in a new context: when the widget first
 * showed its figures (ms from navigation start) and what the page fetched, once the network is idle.
 */
async function load(browser, name, html, network) {
  const context = await browser.newContext();
  try {
    const asked = await serveCourse(context, { '/page.html': html }, { link: network && networkModel(network) });
    const page = await context.newPage();
    await page.goto(`${SITE}/page.html`);
    await page.waitForFunction((tag) => document.querySelector(tag)?.rendered, `tb-${name}`);
    const renderedMs = await page.evaluate((tag) => document.querySelector(tag).rendered, `tb-${name}`);
    await page.waitForLoadState('networkidle');
    return { renderedMs, ...pageBytes(asked, '/page.html') };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function embedBytes(browser, { loads = 5 } = {}) {
  assertBuilt();
  const oneFileBytes = gzipSync(readFileSync(join(DIST, 'transformer-block.js'))).length;
  const rows = [];
  for (const name of EMBED_WIDGETS) {
    const markup = `<tb-${name}></tb-${name}>`;
    const folder = [];
    const one = [];
    const folderMobile = [];
    const oneMobile = [];
    // Interleaved, so drift on a shared machine falls on both alike.
    for (let i = 0; i < loads; i++) {
      folder.push(await load(browser, name, autoloaded(markup)));
      one.push(await load(browser, name, oneFile(markup)));
      folderMobile.push(await load(browser, name, autoloaded(markup), MOBILE));
      oneMobile.push(await load(browser, name, oneFile(markup), MOBILE));
    }
    const { bytes, files, paths } = folder[0];
    rows.push({
      tag: `tb-${name}`,
      folder: { bytes, files, wasm: paths.filter((p) => p.endsWith('.wasm')).map((p) => p.split('/').pop()), rendered_ms: median(folder.map((l) => l.renderedMs)), mobile_ms: median(folderMobile.map((l) => l.renderedMs)) },
      one_file: oneFileBytes,
      one_file_rendered_ms: median(one.map((l) => l.renderedMs)),
      one_file_mobile_ms: median(oneMobile.map((l) => l.renderedMs)),
      npm: gzipSync(await bundledElement(name, { minify: true })).length,
    });
  }
  return rows;
}
