// <tb-train>: TinyGPT trained in the page, in a worker: the live curve against the reference lines,
// progress, pause/resume/stop, the sample, the settings' messages, and the trained model handed to
// <tb-tiny-gpt>. Every number shown is the library's; the outcome is stated from those numbers.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

/** The library's reference losses for the page's held-out text, and them as the chart labels them. */
async function reference(page) {
  const r = await page.evaluate(async () => (await (await import('/src/wasm.js')).fullLibrary()).train_defaults().reference);
  const two = (x) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(x);
  const three = (x) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(x);
  return { ...r, labels: [`uniform ${two(r.uniform)}`, `unigram ${two(r.unigram)}`, `bigram ${two(r.bigram)}`], three };
}

/** Set a training control by its label (the fields are plain inputs; the norm is a select). */
async function set(widget, label, value) {
  const field = widget.getByLabel(label, { exact: true });
  if ((await field.evaluate((el) => el.localName)) === 'select') await field.selectOption(value);
  else await field.fill(String(value));
}

test('the default run trains in a worker and ends below the bigram line', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').first();
  await expect(train.getByLabel('Steps', { exact: true })).toHaveValue('600');
  await expect(train.locator('.status')).toContainText("characters of this page's prose");
  await train.getByRole('button', { name: 'Train' }).click();
  await expect(train.getByRole('button', { name: 'Train' })).toBeDisabled();
  await expect(train.locator('.outcome')).toContainText('After 600 steps the held-out loss is', { timeout: 45_000 });
  // The reference lines are the library's numbers for this page's held-out text.
  const r = await reference(page);
  expect(r.uniform).toBeCloseTo(Math.log(50), 12);
  expect(r.bigram).toBeLessThan(r.unigram);
  await expect(train.locator('.loss-chart .reference text')).toHaveText(r.labels);
  await expect(train.locator('.outcome')).toContainText(`below the bigram line (${r.three(r.bigram)})`);
  await expect(train.locator('.where')).toHaveText('Training runs in a background worker: the page stays responsive.');
  await expect(train.locator('progress')).toHaveJSProperty('value', 600);
  await expect(train.locator('.status')).toContainText(/^Step 600 of 600 · [\d,]+ steps\/s · [\d.]+ s$/);
  expect(await train.locator('.held-out-points circle').count()).toBeGreaterThanOrEqual(10);
  await expect(train.locator('.train-line')).toHaveAttribute('d', /^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/);
  await expect(train.locator('.sample figcaption')).toHaveText('Text the model writes after "The " at step 600');
  expect((await train.locator('.sample pre').textContent()).length).toBe(4 + 120);
  const label = await train.getByRole('img', { name: /^Loss against training step/ }).getAttribute('aria-label');
  expect(label).toMatch(/Held-out loss 2\.\d{3} at step 600\./);
  expect(label).toContain(`Reference lines: uniform ${r.three(r.uniform)}, unigram ${r.three(r.unigram)}, bigram ${r.three(r.bigram)} nats.`);
  await expect(train.getByRole('button', { name: 'Train' })).toBeEnabled();

  // The reader on the page can now use it.
  const gpt = page.locator('tb-tiny-gpt');
  await gpt.getByLabel('Model').selectOption('trained');
  await expect(gpt.locator('.model-note')).toContainText('trained on this page for 600 steps; held-out loss 2.');
  await expect(gpt.locator('.next-chars li')).toHaveCount(12);
  // And the attention maps show where its heads look.
  const att = page.locator('tb-attention');
  await att.getByLabel('Model').selectOption('trained');
  await expect(att.locator('.model-note')).toContainText('trained on this page for 600 steps');
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  expect(problems).toEqual([]);
});

test('pause holds the run, resume goes on, stop ends it early and keeps the model', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').first();
  await set(train, 'Steps', 5000);
  await train.getByRole('button', { name: 'Train' }).click();
  const progress = train.locator('progress');
  await expect.poll(() => progress.evaluate((p) => p.value)).toBeGreaterThan(20);
  await train.getByRole('button', { name: 'Pause' }).click();
  await expect(train.getByRole('button', { name: 'Resume' })).toHaveAttribute('aria-pressed', 'true');
  await expect(train.locator('.outcome')).toContainText(/^Paused at step [\d,]+\.$/);
  const held = await progress.evaluate((p) => p.value);
  await page.waitForTimeout(600);
  // At most the slice that was running when the pause arrived.
  expect(await progress.evaluate((p) => p.value)).toBeLessThanOrEqual(held + 60);
  const paused = await progress.evaluate((p) => p.value);
  await page.waitForTimeout(400);
  expect(await progress.evaluate((p) => p.value)).toBe(paused);
  await train.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => progress.evaluate((p) => p.value)).toBeGreaterThan(paused + 20);
  await train.getByRole('button', { name: 'Stop' }).click();
  await expect(train.locator('.outcome')).toContainText(/^After [\d,]+ steps the held-out loss is/);
  const steps = Number((await train.locator('.outcome').textContent()).match(/After ([\d,]+) steps/)[1].replace(/,/g, ''));
  expect(steps).toBeLessThan(5000);
  await expect(train.getByRole('button', { name: 'Train' })).toBeEnabled();
  await expect(train.getByRole('button', { name: 'Stop' })).toBeDisabled();
  const gpt = page.locator('tb-tiny-gpt');
  await gpt.getByLabel('Model').selectOption('trained');
  await expect(gpt.locator('.model-note')).toContainText(`trained on this page for ${steps.toLocaleString('en-US')} steps`);
  expect(problems).toEqual([]);
});

test('with reduced motion asked for, the live curve is redrawn about once a second, and still ends complete', async ({ page }) => {
  test.setTimeout(60_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').first();
  await expect(train.locator('.status')).toContainText("characters of this page's prose");
  // Count the chart's redraws (each replaces the box's SVG) and when they happen.
  await train.evaluate((host) => {
    window.__draws = [];
    new MutationObserver(() => window.__draws.push(performance.now())).observe(host.shadowRoot.querySelector('.chart'), { childList: true });
  });
  await set(train, 'Steps', 1500);
  await train.getByRole('button', { name: 'Train' }).click();
  await expect(train.locator('.outcome')).toContainText('After 1,500 steps the held-out loss is', { timeout: 45_000 });
  const draws = await page.evaluate(() => window.__draws);
  const seconds = (draws.at(-1) - draws[0]) / 1000;
  // One draw a second at most (a frame of slack each), however fast the machine trains.
  expect(draws.length).toBeLessThanOrEqual(Math.floor(seconds / 0.95) + 2);
  // The last draw shows the whole run.
  await expect(train.locator('progress')).toHaveJSProperty('value', 1500);
  expect(await train.locator('.held-out-points circle').count()).toBeGreaterThanOrEqual(10);
  expect(problems).toEqual([]);
});

test('bad settings are named with what is allowed, before anything runs; the widget still trains', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').first();
  const alert = train.getByRole('alert');
  const cases = [
    [['Learning rate', '0'], 'learning rate 0 is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)'],
    [['Learning rate', 'fast'], 'Learning rate: "fast" is not a number'],
    [['Learning rate', '1e309'], 'learning rate inf is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)'],
    [['Blocks', '9'], 'layers 9 is out of range: give 1 to 8 blocks'],
    [['Steps', '0'], 'steps 0 is out of range: train for 1 to 100,000 steps'],
    [['Steps', '1e9'], 'steps 1,000,000,000 is out of range: train for 1 to 100,000 steps'],
    [['Steps', ''], 'Steps: type a number'],
    [['Seed', '1.5'], 'seed 1.5 is out of range: it must be a whole number (0, 1, 2, ...)'],
    [['Warmup steps', '700'], 'warmup 700 is out of range: give 0 to the 600 steps of the run'],
  ];
  for (const [[label, value], message] of cases) {
    await set(train, label, value);
    await train.getByRole('button', { name: 'Train' }).click();
    await expect(alert, `${label} = ${value}`).toHaveText(message);
    await expect(train.getByRole('button', { name: 'Train' })).toBeEnabled();
    await set(train, label, { 'Learning rate': '0.003', Blocks: '2', Steps: '600', Seed: '0', 'Warmup steps': '0' }[label]);
  }
  await set(train, 'Steps', 40);
  await train.getByRole('button', { name: 'Train' }).click();
  await expect(train.locator('.outcome')).toContainText('After 40 steps the held-out loss is');
  await expect(alert).toBeHidden();

  const bad = page.locator('tb-train').nth(2);
  await expect(bad.getByRole('alert').first()).toContainText('steps "many" is not a number; using 600');
  await expect(bad.getByRole('alert').nth(1)).toContainText('norm "sideways" is not a norm placement: choose pre or post; using pre');
  expect(problems).toEqual([]);
});

test('post-LN with a warmup trains too, and the settings reach the run', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').nth(1);
  await expect(train.getByLabel('Norm placement')).toHaveValue('post');
  await expect(train.getByLabel('Warmup steps')).toHaveValue('100');
  await set(train, 'Steps', 120);
  await set(train, 'Blocks', 1);
  await train.getByRole('button', { name: 'Train' }).click();
  await expect(train.locator('.outcome')).toContainText('After 120 steps the held-out loss is', { timeout: 45_000 });
  const gpt = page.locator('tb-tiny-gpt');
  await gpt.getByLabel('Model').selectOption('trained');
  await expect(gpt.locator('.model-note')).toContainText('1 block of width 32, post-LN, trained on this page for 120 steps');
  expect(problems).toEqual([]);
});

test('is usable by keyboard, and fits a 360px phone in dark mode', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = await openPage(page, '/gallery/train.html');
  const train = page.locator('tb-train').first();
  // Before any run, the chart already shows where the lines are.
  await expect(train.locator('.loss-chart .reference text')).toHaveText((await reference(page)).labels);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  // Every control has a name, and Tab reaches the Train button from the fields.
  for (const label of ['Seed', 'Steps', 'Learning rate', 'Warmup steps', 'Blocks', 'Norm placement']) {
    await expect(train.getByLabel(label, { exact: true })).toBeVisible();
  }
  await train.getByLabel('Norm placement').focus();
  await page.keyboard.press('Tab');
  await expect(train.getByRole('button', { name: 'Train' })).toBeFocused();
  await set(train, 'Steps', 20);
  await train.getByRole('button', { name: 'Train' }).focus();
  await page.keyboard.press('Enter');
  await expect(train.locator('.outcome')).toContainText('After 20 steps');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test('the norm race trains both models side by side and states what it found', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/train.html');
  const race = page.locator('tb-norm-race').first();
  await expect(race.locator('.loss-chart .reference text')).toHaveCount(2); // unigram and bigram, before any run
  await race.getByLabel('Steps', { exact: true }).fill('30');
  await race.getByLabel('Warmup steps').fill('40');
  await race.getByRole('button', { name: 'Race' }).click();
  await expect(race.getByRole('alert')).toHaveText('warmup 40 is out of range: give 0 to the 30 steps of the run');
  await race.getByLabel('Warmup steps').fill('10');
  await race.getByRole('button', { name: 'Race' }).click();
  await expect(race.locator('.outcome')).toContainText(/^At step 30, pre-LN is .* \(\d\.\d{3}\) and post-LN .* \(\d\.\d{3}\): (post-LN lags behind; this run stalled it|both trained; this run did not stall post-LN)\.$/, { timeout: 45_000 });
  await expect(race.locator('.status')).toHaveText('pre-LN: step 30 of 30 · post-LN: step 30 of 30');
  await expect(race.locator('.run-pre .train-line')).toHaveCount(1);
  await expect(race.locator('.run-post .train-line')).toHaveCount(1);
  await expect(race.locator('.muted').filter({ hasText: 'background workers' })).toHaveCount(1);
  await expect(race.locator('.reported li')).toHaveCount(4);
  const bad = page.locator('tb-norm-race').nth(1);
  await expect(bad.getByRole('alert').first()).toHaveText('seed "x" is not a number; using 0');
  expect(problems).toEqual([]);
});
