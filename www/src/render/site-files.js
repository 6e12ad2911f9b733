// The pages the command renders are files (transformer-block render 'site/**/*.html', a page's
// address then file://…): what their elements fetch from beside them (a results-src, a config-src)
// is read from the same folder on disk, as the site will serve it. Other addresses are fetched as
// the DOM fetches them.
//
//   readsSiteFiles(globalThis)   in the page worker, before the elements run

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const TYPES = { '.json': 'application/json', '.html': 'text/html', '.txt': 'text/plain', '.wasm': 'application/wasm' };

export function readsSiteFiles(window) {
  const fetchOver = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = new URL(input instanceof window.Request ? input.url : String(input), window.location.href);
    if (url.protocol !== 'file:') return fetchOver(input, init);
    try {
      const bytes = await readFile(fileURLToPath(url));
      const type = TYPES[/\.[a-z]+$/i.exec(url.pathname)?.[0].toLowerCase()] ?? 'application/octet-stream';
      return new window.Response(bytes, { status: 200, headers: { 'content-type': type } });
    } catch (err) {
      return new window.Response(`${err.code ?? err.message}`, { status: err.code === 'ENOENT' ? 404 : 500, statusText: err.code === 'ENOENT' ? 'Not Found' : 'Unreadable' });
    }
  };
}
