// Lighthouse on the deployable site, as `make bench` runs it: npm lighthouse 12.2.3 (pinned in
// package.json; 13 wants Node 22) on Debian's Chromium, its default mobile profile (a mid-range
// phone simulated: 4x CPU slowdown, 150 ms round trips, 1.6 Mbit/s), each page served as a static
// host serves it (scripts/serve.mjs --site: brotli where the browser takes it).
//
//   const rows = await lighthouseRuns({ runs: 3 });   // one row a page, the median run's figures
//
// Pages: the served lesson, its French edition, the offline lesson file (from the same server), the
// gallery's index, a course page embedded by the autoloader (the gallery's autoloaded page), and a
// page with one heading (the floor the lesson's LCP is compared with, in the same run). Scores are
// timings: printed and recorded in BENCHMARKS.md, never asserted.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_ARGS, startServer } from './browser.mjs';

/** The pages measured: a name, and the path on the site's server (or the heading page's). */
export const LIGHTHOUSE_PAGES = [
  { page: 'served lesson', path: '/' },
  { page: 'French edition', path: '/fr/' },
  { page: 'offline lesson file', path: '/transformer-block-lesson.html' },
  { page: 'gallery', path: '/gallery/' },
  { page: 'autoloaded course page', path: '/gallery/autoloaded.html' },
  { page: 'one heading', path: '/index.html', heading: true },
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const HEADING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>One heading</title><link rel="icon" href="data:,">
<meta name="description" content="A page with one heading: the floor for the lesson's largest contentful paint."></head>
<body><h1>Inside the transformer block</h1></body></html>`;

/** The figures of one Lighthouse result. */
function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? null;
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
    fcp_ms: audit('first-contentful-paint'),
    lcp_ms: audit('largest-contentful-paint'),
    tbt_ms: audit('total-blocking-time'),
    tti_ms: audit('interactive'),
    dom_elements: audit('dom-size'),
    failed: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id),
  };
}

/**
 * Lighthouse `runs` times on each page (quick: the served lesson once), the median run of each by
 * Lighthouse's own rule (computeMedianRun: FCP and TTI). Returns [{ page, url, runs, ...figures }].
 */
export async function lighthouseRuns({ runs = 3, quick = false, log = () => {} } = {}) {
  const headingDir = mkdtempSync(join(tmpdir(), 'tb-heading-'));
  writeFileSync(join(headingDir, 'index.html'), HEADING_PAGE);
  const site = await startServer({ site: true });
  const heading = await startServer({ root: headingDir });
  // Lighthouse drives its own Chromium (chrome-launcher), with the flags this machine needs.
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    chromeFlags: CHROMIUM_ARGS.map((f) => (f === '--headless' ? '--headless=new' : f)),
  });
  const rows = [];
  try {
    for (const { page, path, heading: isHeading } of quick ? LIGHTHOUSE_PAGES.slice(0, 1) : LIGHTHOUSE_PAGES) {
      // localhost, not 127.0.0.1: the site's canonical links name localhost (make site's SITE_URL).
      const url = `${(isHeading ? heading : site).origin.replace('127.0.0.1', 'localhost')}${path}`;
      const lhrs = [];
      for (let i = 0; i < (quick ? 1 : runs); i++) {
        log(`lighthouse: ${page} (${i + 1}/${quick ? 1 : runs})`);
        const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
        if (!result?.lhr) throw new Error(`lighthouse gave no result for ${url}`);
        if (result.lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
        lhrs.push(result.lhr);
      }
      rows.push({ page, url, runs: lhrs.length, ...figures(computeMedianRun(lhrs)) });
    }
  } finally {
    await chrome.kill();
    site.stop();
    heading.stop();
    rmSync(headingDir, { recursive: true, force: true });
  }
  return rows;
}

/** The table `make bench` prints. */
export function lighthouseTable(rows) {
  const ms = (v) => (v === null ? '—' : `${Math.round(v).toLocaleString('en')} ms`);
  const floor = rows.find((r) => r.page === 'one heading')?.lcp_ms;
  const lines = [
    '| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | TTI | DOM elements | not passed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const s = r.scores;
    const lcp = floor && r.page !== 'one heading' ? `${ms(r.lcp_ms)} (${(r.lcp_ms / floor).toFixed(2)}x)` : ms(r.lcp_ms);
    lines.push(`| ${r.page} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} | ${ms(r.fcp_ms)} | ${lcp} | ${ms(r.tbt_ms)} | ${ms(r.tti_ms)} | ${r.dom_elements ?? '—'} | ${r.failed.join(', ') || '—'} |`);
  }
  return lines.join('\n');
}
