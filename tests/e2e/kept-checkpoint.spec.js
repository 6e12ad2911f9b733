// The reader's checkpoint kept in this browser across reloads (www/src/models/kept-store.js): in
// IndexedDB, the weights as bytes, read in the background (the widgets render first with their own
// model), forgotten on request; where IndexedDB is refused or has no room, kept for the visit only
// and the panel says why; an entry an earlier version left in localStorage moved over once.

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPage, waitForWidgets } from './helpers.js';

const FIXTURE = new URL('fixtures/checkpoint/', import.meta.url);
const file = (name) => ({ name, bytes: [...readFileSync(new URL(name, FIXTURE))] });
const CHECKPOINT = ['model.safetensors', 'config.json', 'vocab.json'].map(file);
const WEIGHTS_BYTES = CHECKPOINT[0].bytes.length;
const PAGE = '/gallery/experiments.html';
const KEY = `tb-your-checkpoint:${PAGE}`;

async function drop(widget, files) {
  await widget.evaluate((host, files) => {
    const data = new DataTransfer();
    for (const f of files) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
    host.shadowRoot.querySelector('.your-checkpoint').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}
const switcher = (widget) => widget.getByLabel('Model', { exact: true });
const openPanel = (widget) => switcher(widget).selectOption({ label: 'Your checkpoint…' });
const ablation = (page) => page.locator('tb-ablation').first();
const stream = (page) => page.locator('tb-stream').first();

// Reloads and measurements on the experiments page: more than the default 30 s on a slow machine.
test.describe.configure({ timeout: 60_000 });

/** What the site's database holds for the page's checkpoint: { name, bytes, buffer, config } or null. */
const keptEntry = (page, key = KEY) =>
  page.evaluate(
    (key) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('transformer-block', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('kept');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const get = db.transaction('kept').objectStore('kept').get(key);
          get.onsuccess = () => {
            const v = get.result;
            db.close();
            resolve(v ? { name: v.name, bytes: v.weights.byteLength, buffer: v.weights instanceof ArrayBuffer, config: typeof v.config } : null);
          };
        };
      }),
    key,
  );

test('a dropped checkpoint is kept in IndexedDB as bytes, offered after a reload, and Forget removes it', async ({ page }) => {
  const problems = await openPage(page, PAGE);
  await waitForWidgets(page);
  await openPanel(ablation(page));
  await drop(ablation(page), CHECKPOINT);
  await expect(ablation(page).locator('.blocks li')).toHaveCount(1);
  await expect(ablation(page).locator('.your-checkpoint')).toBeHidden(); // kept: the panel closes
  expect(await keptEntry(page)).toEqual({ name: 'model.safetensors', bytes: WEIGHTS_BYTES, buffer: true, config: 'string' });
  expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();

  await page.reload();
  await waitForWidgets(page);
  // The widgets rendered with their own model; the kept checkpoint is offered once read.
  await expect(switcher(ablation(page))).toHaveValue('six-blocks');
  const option = switcher(stream(page)).locator('option[value="checkpoint"]');
  await expect(option).toHaveText('your checkpoint: model.safetensors');
  await expect(option).toBeEnabled();
  await switcher(stream(page)).selectOption('checkpoint');
  await expect(stream(page).locator('.cards li')).toHaveCount(1);

  await openPanel(stream(page));
  await stream(page).getByRole('button', { name: 'Forget my checkpoint' }).click();
  await expect(option).toHaveText('your checkpoint');
  await expect(option).toBeDisabled();
  await expect(switcher(stream(page))).not.toHaveValue('checkpoint');
  await expect.poll(() => keptEntry(page)).toBeNull();
  await page.reload();
  await waitForWidgets(page);
  await expect(switcher(stream(page)).locator('option[value="checkpoint"]')).toBeDisabled();
  expect(problems).toEqual([]);
});

test('reading the kept checkpoint never holds a widget back: they render first, and the switchers offer it when it arrives', async ({ page }) => {
  const problems = await openPage(page, PAGE);
  await waitForWidgets(page);
  await openPanel(ablation(page));
  await drop(ablation(page), CHECKPOINT);
  await expect(ablation(page).locator('.your-checkpoint')).toBeHidden();
  // From the next load on, the database's open answers only when the test says so.
  await page.addInitScript(() => {
    const open = IDBFactory.prototype.open;
    const held = [];
    window.releaseDatabase = () => held.splice(0).forEach((go) => go());
    IDBFactory.prototype.open = function (...args) {
      const request = open.apply(this, args);
      const set = Object.getOwnPropertyDescriptor(IDBRequest.prototype, 'onsuccess').set;
      Object.defineProperty(request, 'onsuccess', { set: (fn) => set.call(request, (event) => held.push(() => fn.call(request, event))) });
      return request;
    };
  });
  await page.reload();
  await waitForWidgets(page);
  const option = switcher(stream(page)).locator('option[value="checkpoint"]');
  await expect(option).toBeDisabled();
  await expect(switcher(stream(page))).not.toHaveValue('checkpoint'); // its own model meanwhile
  await page.evaluate(() => window.releaseDatabase());
  await expect(option).toHaveText('your checkpoint: model.safetensors');
  await expect(option).toBeEnabled();
  expect(problems).toEqual([]);
});

test('where IndexedDB is refused, the checkpoint runs for the visit and the panel says it will not survive a reload', async ({ page }) => {
  await page.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
  });
  const problems = await openPage(page, PAGE);
  await waitForWidgets(page);
  await openPanel(ablation(page));
  await drop(ablation(page), CHECKPOINT);
  await expect(ablation(page).locator('.blocks li')).toHaveCount(1);
  const note =
    'Loaded, but it will not survive a reload of the page: this browser does not let the page keep files (private browsing, a page opened from a file, or storage turned off).';
  await expect(ablation(page).locator('.your-checkpoint [role="status"]')).toHaveText(note);
  // Shared with the page all the same, and the note is there in any panel opened later.
  await openPanel(stream(page));
  await expect(stream(page).locator('.your-checkpoint [role="status"]')).toHaveText(note);
  await page.reload();
  await waitForWidgets(page);
  await expect(switcher(stream(page)).locator('option[value="checkpoint"]')).toBeDisabled();
  expect(problems).toEqual([]);
});

test('with no room left (the estimate, or a QuotaExceededError), nothing is kept and the panel says so', async ({ page }) => {
  const problems = await openPage(page, PAGE);
  await waitForWidgets(page);
  const noRoom = /^Loaded, but it will not survive a reload of the page: this browser has no room left to keep its [\d.]+ KiB for this site\.$/;
  // The browser says the site has 10 KB left.
  await page.evaluate(() => Object.defineProperty(StorageManager.prototype, 'estimate', { value: async () => ({ quota: 10_000, usage: 0 }) }));
  await openPanel(ablation(page));
  await drop(ablation(page), CHECKPOINT);
  await expect(ablation(page).locator('.your-checkpoint [role="status"]')).toHaveText(noRoom);
  expect(await keptEntry(page)).toBeNull();
  // After a reload (nothing was kept), the estimate says yes and the write is refused.
  await page.reload();
  await waitForWidgets(page);
  await expect(switcher(stream(page)).locator('option[value="checkpoint"]')).toBeDisabled();
  await page.evaluate(() => {
    Object.defineProperty(StorageManager.prototype, 'estimate', { value: async () => ({ quota: 1e12, usage: 0 }) });
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await openPanel(stream(page));
  await expect(stream(page).locator('.your-checkpoint [role="status"]')).toHaveText('');
  await drop(stream(page), CHECKPOINT);
  await expect(stream(page).locator('.your-checkpoint [role="status"]')).toHaveText(noRoom);
  await expect(stream(page).locator('.cards li')).toHaveCount(1);
  expect(await keptEntry(page)).toBeNull();
  expect(problems).toEqual([]);
});

test('a checkpoint an earlier version kept in localStorage (base64) is moved into IndexedDB once', async ({ page }) => {
  const [weights, config, vocab] = CHECKPOINT;
  // What the earlier version left, there before the page's first script runs.
  await page.addInitScript(
    ([key, entry]) => {
      if (!sessionStorage.getItem('seeded')) localStorage.setItem(key, JSON.stringify(entry));
      sessionStorage.setItem('seeded', '1');
    },
    [KEY, { name: 'an-earlier-run', weights: Buffer.from(weights.bytes).toString('base64'), config: Buffer.from(config.bytes).toString(), vocab: Buffer.from(vocab.bytes).toString() }],
  );
  const problems = await openPage(page, PAGE);
  await waitForWidgets(page);
  const option = switcher(stream(page)).locator('option[value="checkpoint"]');
  await expect(option).toHaveText('your checkpoint: an-earlier-run');
  await switcher(stream(page)).selectOption('checkpoint');
  await expect(stream(page).locator('.cards li')).toHaveCount(1);
  expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
  await expect.poll(() => keptEntry(page)).toEqual({ name: 'an-earlier-run', bytes: WEIGHTS_BYTES, buffer: true, config: 'string' });
  expect(problems).toEqual([]);
});
