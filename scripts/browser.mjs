// What the benchmark scripts (bench.mjs, bench-training.mjs) share: headless Chromium with the
// flags this machine needs (Debian's chromium; Playwright's own download does not work here), and
// scripts/serve.mjs on a free port.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchChromium() {
  const { chromium } = await import('@playwright/test');
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Chromium with a new profile on disk in `dir` (a context; close() ends it): storage as a reader's
 * browser keeps it (Cache Storage on disk, within the disk's quota), where launchChromium's pages
 * get an incognito context's, held in memory.
 */
export async function launchChromiumProfile(dir) {
  const { chromium } = await import('@playwright/test');
  return chromium.launchPersistentContext(dir, { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * scripts/serve.mjs serving www/ on a free port: `{ origin, stop() }`, once it answers. `live`: the
 * pages as they are in www/, never their prerendered versions. `site`: dist/site/ instead, as a
 * static host serves it (make site). `root`: another folder's files, as they are.
 */
export async function startServer({ live = false, site = false, root = null } = {}) {
  const port = await freePort();
  const args = site ? ['--site'] : root ? [root] : [];
  const child = spawn(process.execPath, [fileURLToPath(new URL('serve.mjs', import.meta.url)), ...args], {
    env: { ...process.env, PORT: String(port), ...(live ? { TB_LIVE: '1' } : {}) },
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${origin}/`)).ok) return { origin, stop: () => child.kill() };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`scripts/serve.mjs did not answer on ${origin}`);
}
