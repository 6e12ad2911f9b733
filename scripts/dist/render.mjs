// dist/npm/: the renderer for Node (www/src/render/): `import { render } from
// 'transformer-block/render'` and the `transformer-block` command, each bundled into one module
// beside the package's index.js, which they load in their worker for the elements.

import * as esbuild from 'esbuild';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SRC } from './common.mjs';

/** What the renderer needs installed beside it: the package's dependencies (exact, as tested). */
export const RENDER_DEPENDENCIES = ['@happy-dom/global-registrator', 'tinyglobby'];

/** render.js, page-worker.js and cli.js into `out` (dist/npm/), and render.d.ts. */
export async function renderModules(out, banner) {
  await esbuild.build({
    entryPoints: ['render.js', 'page-worker.js', 'cli.js'].map((f) => join(SRC, 'render', f)),
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: RENDER_DEPENDENCIES,
    banner: { js: banner },
    logLevel: 'warning',
  });
  chmodSync(join(out, 'cli.js'), 0o755);
  writeFileSync(join(out, 'render.d.ts'), RENDER_DTS);
}

const RENDER_DTS = `// transformer-block/render: each <tb-…> element's first render written into a page's HTML.
export interface RenderOptions {
  /** The page's address: what relative links and the elements' fetches resolve against. */
  url?: string;
  /** The page's name in messages (default: "the page"). */
  name?: string;
  /** Each warning (a tag that is not an element, a page that did not settle); default console.warn. */
  onWarning?: (text: string) => void;
  /** Milliseconds a page's widgets get to render and settle (default 60000). */
  timeoutMs?: number;
}
/** The HTML with each <tb-…> element's first render after its open tag, as <template shadowrootmode="open">. Never rejects for bad HTML. */
export function render(html: string, options?: RenderOptions): Promise<string>;
`;
