// A recipe per host, proven: each small course site of tests/sites/ (Eleventy, Hugo, MkDocs with
// Material, VitePress, Astro) is built by its own generator with the widgets in it, as an author
// builds it, and its page opened in Chromium: the build succeeds, the figures are in the HTML
// (the renderer for Node, run by the host's after-build hook where it has one, else by the
// `transformer-block render` command after it), shown without JavaScript, and the elements go
// live over them with it. Each build's time is printed (BENCHMARKS.md).
//
// tests/sites/ installs its generators (tests/sites/package.json, .venv for MkDocs; scripts/setup.sh)
// and takes the package from dist/npm/ and the folder from dist/transformer-block/, as make dist
// left them.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/browser.mjs';
import { shadowShown } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITES = join(ROOT, 'tests/sites');
const BIN = join(SITES, 'node_modules/.bin');
const CLI = join(ROOT, 'dist/npm/cli.js');

/** Each host: how it builds (in its folder), where its pages land, and whether its build renders. */
const HOSTS = [
  { name: 'Eleventy', dir: 'eleventy', build: [join(BIN, 'eleventy')], out: '_site', env: { TB_FOLDER: '../../../dist/transformer-block' } },
  { name: 'Hugo', dir: 'hugo', build: ['hugo', '--quiet'], out: 'public', renderAfter: true },
  { name: 'MkDocs (Material)', dir: 'mkdocs', build: [join(SITES, '.venv/bin/mkdocs'), 'build', '-q'], out: 'site', renderAfter: true, folderIn: 'docs', env: { NO_MKDOCS_2_WARNING: '1' } },
  { name: 'VitePress', dir: 'vitepress', build: [join(BIN, 'vitepress'), 'build'], out: '.vitepress/dist' },
  { name: 'Astro', dir: 'astro', build: [join(BIN, 'astro'), 'build'], out: 'dist', env: { ASTRO_TELEMETRY_DISABLED: '1' } },
];

test.beforeAll(() => {
  // The package as an author's install has it: tests/sites/node_modules/transformer-block.
  const link = join(SITES, 'node_modules/transformer-block');
  if (!existsSync(link) || !lstatSync(link).isSymbolicLink()) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync('../../../dist/npm', link);
  }
});

for (const host of HOSTS) {
  test(`${host.name}: the site builds with the widgets, its page shows their figures without JavaScript, and they go live with it`, async ({ browser }) => {
    test.setTimeout(180_000);
    const dir = join(SITES, host.dir);
    const out = join(dir, host.out);
    rmSync(out, { recursive: true, force: true });
    if (host.folderIn) {
      // MkDocs copies docs/ as it is: the folder goes there, as an author copies it.
      rmSync(join(dir, host.folderIn, 'transformer-block'), { recursive: true, force: true });
      mkdirSync(join(dir, host.folderIn), { recursive: true });
      cpSync(join(ROOT, 'dist/transformer-block'), join(dir, host.folderIn, 'transformer-block'), { recursive: true });
    }
    const started = performance.now();
    const built = spawnSync(host.build[0], host.build.slice(1), { cwd: dir, encoding: 'utf8', timeout: 150_000, env: { ...process.env, ...host.env } });
    expect(built.status, `${host.name} build:\n${built.stdout}\n${built.stderr}`).toBe(0);
    if (host.renderAfter) {
      const rendered = spawnSync(process.execPath, [CLI, 'render', `${host.out}/**/*.html`], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      expect(rendered.status, rendered.stderr).toBe(0);
    }
    console.log(`${host.name}: built and rendered in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const server = await startServer({ root: out });
    try {
      const still = await browser.newContext({ javaScriptEnabled: false });
      const before = await still.newPage();
      await before.goto(`${server.origin}/index.html`);
      expect(await shadowShown(before, 'tb-number')).toBe('124,439,808');
      expect(await shadowShown(before, 'tb-param-table')).toContain('124,439,808');
      await still.close();

      const live = await browser.newContext();
      const page = await live.newPage();
      const problems = [];
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
      page.on('requestfailed', (req) => problems.push(`${req.url()}: ${req.failure()?.errorText}`));
      page.on('response', (res) => res.status() >= 400 && problems.push(`${res.url()}: HTTP ${res.status()}`));
      await page.goto(`${server.origin}/index.html`);
      await page.waitForFunction(() => ['tb-number', 'tb-param-table'].every((t) => document.querySelector(t)?.rendered !== undefined), null, { timeout: 30_000 });
      await page.evaluate(() => Promise.all(['tb-number', 'tb-param-table'].map((t) => document.querySelector(t).rendered)));
      expect(await page.evaluate(() => document.querySelector('tb-param-table').prerendered)).toBe(false);
      expect(await shadowShown(page, 'tb-param-table')).toContain('124,439,808');
      expect(problems).toEqual([]);
      await live.close();
    } finally {
      server.stop();
    }
  });
}
