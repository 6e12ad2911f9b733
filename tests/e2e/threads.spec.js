// A real checkpoint on threads. A page its server sends cross-origin isolated (COOP and COEP, as
// scripts/serve.mjs and dist/site/_headers do) runs the checkpoint worker's threads build: a pool of
// workers on the device's cores (two here) sharing the instance's memory, the products' outputs split
// between them. The widget says how many; every figure is the same bits on one thread and on all of
// them: the inspection (every head's weights, the next tokens) and the ablation of the fixtures'
// eval.txt in windows of 64 (products large enough to split); more threads than the pool's are
// refused. The pool's workers are started by the page, and end with the checkpoint. A page sent
// without the headers runs one thread, and says why.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { FIXTURES, coursePage, serveFolder } from './checkpoint-pages.js';

const EVAL_TEXT = readFileSync(new URL('eval.txt', FIXTURES), 'utf8');
const TEXT = 'Attention is the only stage that mixes positions, and the feed-forward holds most of the weights.';

test.describe.configure({ timeout: 60_000 });

/** In the page, through its client module (the worker the widget opened): the figures on `threads` threads. */
function figuresOn(page, threads) {
  return page.evaluate(
    async ({ threads, text, evalText }) => {
      const { openCheckpoint } = await import('/src/checkpoint/client.js');
      const c = openCheckpoint({ href: new URL('/course/models/gpt2/', location.href).href });
      const info = await c.setThreads(threads);
      const seen = await c.inspect(text, 'threads-test');
      const ablation = await c.experiment({ name: 'ablation', text: evalText, textName: 'eval.txt', context: 64 }).result;
      // Every number as its bits: the attention maps' f32, the probabilities' and losses' f64 as JSON writes them.
      const attentions = seen.attentions.map((a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length)));
      return { engine: c.engine, threads: info.threads, attentions, next: seen.next, ablation };
    },
    { threads, text: TEXT, evalText: EVAL_TEXT },
  );
}

test('cross-origin isolated: the checkpoint runs on the pool of threads, with the same bits as on one', async ({ page }) => {
  await serveFolder(page, 'gpt2');
  // The workers the page itself starts (a worker's own do not go through its window's Worker).
  await page.addInitScript(() => {
    const PageWorker = window.Worker;
    window.startedHere = [];
    window.Worker = class extends PageWorker {
      constructor(url, options) {
        super(url, options);
        window.startedHere.push(String(url));
      }
    };
  });
  const problems = await coursePage(page, `<tb-attention weights-src="/course/models/gpt2/" text="${TEXT}"></tb-attention>`, { isolated: true });
  expect(await page.evaluate(() => [crossOriginIsolated, navigator.hardwareConcurrency])).toEqual([true, expect.any(Number)]);
  const cores = Math.min(await page.evaluate(() => navigator.hardwareConcurrency), 8);
  test.skip(cores < 2, 'one core: the worker starts no pool');
  const att = page.locator('tb-attention');
  await expect(att.locator('.pieces li').first()).toBeVisible({ timeout: 20_000 });
  await expect(att.locator('.model-note')).toContainText(`Its forward passes run on ${cores} threads.`);

  const all = await figuresOn(page, cores);
  expect(all.engine).toBe('threads');
  expect(all.threads).toBe(cores);
  expect(all.ablation.blocks).toHaveLength(3);
  const one = await figuresOn(page, 1);
  expect(one.threads).toBe(1);
  expect(one.attentions).toEqual(all.attentions);
  expect(one.next).toEqual(all.next);
  expect(one.ablation).toEqual(all.ablation);

  // More than the pool's: refused, naming the range; the checkpoint keeps running.
  const refused = await page.evaluate(async (more) => {
    const { openCheckpoint } = await import('/src/checkpoint/client.js');
    const c = openCheckpoint({ href: new URL('/course/models/gpt2/', location.href).href });
    return c.setThreads(more).then(
      () => 'accepted',
      (err) => err.message,
    );
  }, cores + 1);
  expect(refused).toContain(`threads ${cores + 1} is out of range: 1 to ${cores} (the threads this page started)`);

  // The pool's workers are the page's (www/src/checkpoint/pool.js: one started by the checkpoint
  // worker could hang Firefox), and end with the checkpoint once no widget shows it.
  const poolWorkers = () => page.workers().filter((w) => w.url().endsWith('/workerHelpers.no-bundler.js'));
  expect(poolWorkers()).toHaveLength(cores);
  expect(await page.evaluate(() => window.startedHere.filter((url) => url.endsWith('/workerHelpers.no-bundler.js')).length)).toBe(cores);
  await page.evaluate(() => document.querySelector('tb-attention').remove());
  await expect.poll(() => poolWorkers().length, { timeout: 10_000 }).toBe(0);
  expect(page.workers().filter((w) => w.url().endsWith('/checkpoint/worker.js'))).toEqual([]);
  expect(problems).toEqual([]);
});

test('not isolated: one thread, and the widget says why', async ({ page }) => {
  await serveFolder(page, 'gpt2');
  const problems = await coursePage(page, `<tb-attention weights-src="/course/models/gpt2/" text="${TEXT}"></tb-attention>`);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  const att = page.locator('tb-attention');
  await expect(att.locator('.model-note')).toContainText('Its forward passes run on one thread: threads share memory, which a browser allows only on a page its server sends cross-origin isolated (COOP and COEP headers).', { timeout: 20_000 });
  const refused = await page.evaluate(async () => {
    const { openCheckpoint } = await import('/src/checkpoint/client.js');
    const c = openCheckpoint({ href: new URL('/course/models/gpt2/', location.href).href });
    return [c.engine, await c.setThreads(2).catch((err) => err.message)];
  });
  expect(refused[0]).not.toBe('threads');
  expect(refused[1]).toContain('threads 2 is out of range: 1 to 1 (this page runs one thread)');
  expect(problems).toEqual([]);
});
