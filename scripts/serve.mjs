#!/usr/bin/env node
// A static file server with no dependencies: `make serve` (the deployable site), `make dev` and
// Playwright's webServer (the sources).
//
//   PORT=8000 node scripts/serve.mjs --site       dist/site/, the folder `make site` writes, served as
//                                                a static host serves it: a file's precompressed
//                                                .br or .gz beside it (make site writes both) sent
//                                                with Content-Encoding when the browser accepts it
//   PORT=8000 node scripts/serve.mjs [ROOT]       the sources: www/ next to this script's parent,
//                                                or ROOT's files as they are
//
// Binds to 127.0.0.1 only, serves GET and HEAD, sends the MIME types browsers insist on
// (application/wasm for WebAssembly streaming compilation, text/javascript for modules), tells the
// browser to revalidate (a rebuilt wasm shows up on reload), sends COOP and COEP (the page cross-origin
// isolated: a checkpoint runs on threads), and refuses any path outside its root.
//
// The sources, prerendered: where `make dist` wrote a page with its widgets' first render in it
// (scripts/prerender.mjs, into dist/pages/), that page is served in place of ROOT's, as long as it is
// not older than ROOT's (an edited page is served as it is, live, until the next `make dist`).
// Everything else comes from ROOT, so an edit under www/src shows on reload. `?live` on a page, or
// TB_LIVE=1 for the whole server, serves ROOT's page as it is. /transformer-block/ is the folder
// `make dist` builds for authors (dist/transformer-block/), which the gallery's autoloaded page loads.

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, realpath } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOST = '127.0.0.1';
const PORT = Number(process.env.PORT ?? 8000);
const args = process.argv.slice(2);
const SITE = args.includes('--site');
const OTHER_ROOT = args.find((a) => !a.startsWith('--'));
const ROOT = SITE ? fileURLToPath(new URL('../dist/site/', import.meta.url)) : resolve(OTHER_ROOT ?? fileURLToPath(new URL('../www/', import.meta.url)));
// www/'s pages prerendered; never for another ROOT's, nor the site's (its own are).
const PRERENDERED = SITE || OTHER_ROOT || process.env.TB_LIVE === '1' ? null : fileURLToPath(new URL('../dist/pages/', import.meta.url));
// The folder an author copies (`make dist`: dist/transformer-block/), served at /transformer-block/
// for the gallery page that embeds the widgets by its autoloader (www/gallery/autoloaded.html).
const FOLDER = fileURLToPath(new URL('../dist/transformer-block/', import.meta.url));
const FOLDER_PATH = '/transformer-block/';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${status} ${text}\n`);
}

/** The file a request path names, or null when it is not inside ROOT. */
async function resolveFile(rootReal, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  let file = resolve(join(rootReal, decoded));
  if (file !== rootReal && !file.startsWith(rootReal + sep)) return null;
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = join(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) return { file: null };
  // Symlinks must not lead out of ROOT either.
  const real = await realpath(file);
  if (!real.startsWith(rootReal + sep)) return null;
  return { file: real, size: info.size, modified: info.mtimeMs };
}

const rootReal = await realpath(ROOT).catch(() => {
  console.error(`serve: ${ROOT} does not exist${SITE ? ': `make site` writes it' : ''}`);
  process.exit(1);
});

/**
 * The encodings a site file may come in, best first: the precompressed file beside it that the
 * request accepts (`Accept-Encoding`), as a static host or CDN serves them.
 */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/** `found` as the request is best sent it: { file, size, encoding } (encoding null: as it is). */
async function encoded(found, acceptEncoding) {
  const accepted = new Set(
    String(acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name.trim().toLowerCase()),
  );
  for (const [encoding, suffix] of ENCODINGS) {
    if (!accepted.has(encoding)) continue;
    const info = await stat(found.file + suffix).catch(() => null);
    if (info?.isFile()) return { ...found, file: found.file + suffix, size: info.size, encoding };
  }
  return { ...found, encoding: null };
}

const prerenderedReal = PRERENDERED && (await realpath(PRERENDERED).catch(() => null));

/** dist/pages' version of a file ROOT has (see the header), or null to serve ROOT's. */
async function prerendered(pathname, source) {
  const found = await resolveFile(prerenderedReal, pathname);
  if (!found?.file) return null;
  if (!found.file.endsWith('.html') || !source.file) return found;
  return found.modified >= source.modified ? found : null;
}

const server = createServer(async (req, res) => {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, 'Method Not Allowed');
    }
    const { pathname, searchParams } = new URL(req.url, `http://${HOST}`);
    const inFolder = !SITE && pathname.startsWith(FOLDER_PATH);
    // Looked up at each request: make dist replaces the folder while the server runs.
    const folderReal = inFolder ? await realpath(FOLDER).catch(() => null) : null;
    if (inFolder && !folderReal) return send(res, 404, 'Not Found: dist/transformer-block/ is built by make dist');
    let found = inFolder ? await resolveFile(folderReal, pathname.slice(FOLDER_PATH.length - 1)) : await resolveFile(rootReal, pathname);
    if (found !== null && !inFolder && prerenderedReal && !searchParams.has('live')) found = (await prerendered(pathname, found)) ?? found;
    if (found === null) return send(res, 403, 'Forbidden');
    if (found.file === null) return send(res, 404, 'Not Found');
    const sent = SITE ? await encoded(found, req.headers['accept-encoding']) : { ...found, encoding: null };
    res.writeHead(200, {
      'Content-Type': MIME[extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': sent.size,
      'Last-Modified': new Date(found.modified).toUTCString(),
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      // Cross-origin isolated: the checkpoint worker may share memory with a pool of threads
      // (www/src/checkpoint/worker.js), as docs/hosting.md asks every host to send.
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      ...(SITE ? { Vary: 'Accept-Encoding' } : {}),
      ...(sent.encoding ? { 'Content-Encoding': sent.encoding } : {}),
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(sent.file).pipe(res);
  } catch (err) {
    console.error(`serve: ${req.method} ${req.url}: ${err.message}`);
    if (!res.headersSent) send(res, 500, 'Internal Server Error');
    else res.destroy();
  }
});

server.on('error', (err) => {
  console.error(`serve: cannot listen on ${HOST}:${PORT}: ${err.message}`);
  process.exit(1);
});

server.listen(PORT, HOST, () => {
  console.log(`serving ${rootReal} at http://localhost:${PORT}/ (Ctrl-C to stop)`);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
