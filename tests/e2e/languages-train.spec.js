// <tb-train> in the reader's language, and the loss chart it shares with <tb-norm-race>: French and
// Simplified Chinese texts from the catalogs, the numbers in the locale (the expected ones written by
// Intl in the page itself: Chromium's ICU decides the spaces), the worker's reports worded by the
// widget, and a change of language in the middle of a run. The library's own messages are not
// checked here.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage, pageOverflow, recordProblems } from './helpers.js';

const open = (p, lang, body, selector = 'tb-train') => openInLanguage(p, { path: '/languages-train/test.html', lang, body, selector });
const intl = intlInPage;
const NNBSP = '\u202f';

/** The library's defaults for a run on the page's text: { reference, corpus, settings }. */
const defaults = (p) => p.evaluate(async () => (await (await import('/src/wasm.js')).fullLibrary()).train_defaults());

/** The reference lines' labels as the chart writes them in `locale` (`words`: uniform, unigram, bigram). */
async function referenceLabels(p, locale, reference, words) {
  const keys = Object.keys(words).filter((k) => k in reference);
  return Promise.all(keys.map(async (k) => `${words[k]} ${await intl(p, locale, reference[k], { maximumFractionDigits: 2 })}`));
}

/**
 * Whether every reference label of `widget`'s chart ends inside the viewport (none cut off at the
 * right: the longer French words widen the chart's right margin; a label may reach into the page's
 * margin, as the English ones do).
 */
const labelsFit = (widget) =>
  widget.locator('.loss-chart').evaluate((svg) => [...svg.querySelectorAll('.reference text')].every((t) => t.getBoundingClientRect().right <= document.documentElement.clientWidth));

test('<tb-train> in French: labels, the status, the chart and a run, with a decimal comma typed', async ({ page: p }) => {
  test.setTimeout(60_000);
  await p.setViewportSize({ width: 360, height: 740 });
  const problems = await open(p, 'fr', '<tb-train></tb-train><tb-train steps="beaucoup" norm="côté"></tb-train>');
  const w = p.locator('tb-train').first();
  const d = await defaults(p);
  await expect(w.locator('h3')).toHaveText('Entraîner TinyGPT');
  for (const label of ['Graine', 'Pas', 'Taux d\u2019apprentissage', 'Pas de warmup', 'Blocs', 'Position de la norme']) {
    await expect(w.getByLabel(label, { exact: true })).toBeVisible();
  }
  await expect(w.getByLabel('Taux d\u2019apprentissage')).toHaveValue('0,003');
  await expect(w.getByLabel('Position de la norme').locator('option')).toHaveText(['pre-LN (GPT-2)', 'post-LN (d\u2019origine)']);
  await expect(w.locator('.status')).toHaveText(
    `Pas encore lancé. ${await intl(p, 'fr-FR', d.corpus.characters)} caractères de la prose de cette page, dont les ${await intl(p, 'fr-FR', d.corpus.held_out_symbols)} derniers sont réservés à l\u2019évaluation.`,
  );
  await expect(w.locator('.legend li')).toHaveText(['perte d\u2019entraînement (lissée)', 'perte sur le texte réservé', 'pertes uniforme, unigramme et bigramme du texte réservé']);
  // The chart before any run: French axes, the lines' labels in French with decimal commas, all inside the chart.
  await expect(w.locator('.loss-chart .axis-title')).toHaveText(['perte (nats)', 'pas']);
  await expect(w.locator('.loss-chart .reference text')).toHaveText(await referenceLabels(p, 'fr-FR', d.reference, { uniform: 'uniforme', unigram: 'unigramme', bigram: 'bigramme' }));
  expect(await labelsFit(w)).toBe(true);
  const uniform = await intl(p, 'fr-FR', d.reference.uniform, { maximumFractionDigits: 3 });
  await expect(w.getByRole('img', { name: /^Perte en fonction du pas d’entraînement\. Pas encore d’entraînement/ })).toHaveAttribute(
    'aria-label',
    new RegExp(`Lignes de référence${NNBSP}: uniforme ${uniform}, unigramme \\d,\\d+, bigramme \\d,\\d+ nats\\.$`),
  );
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);

  // What the reader types is named in French; a decimal comma is a number.
  const alert = w.getByRole('alert');
  await w.getByLabel('Taux d\u2019apprentissage').fill('vite');
  await w.getByRole('button', { name: 'Entraîner' }).click();
  await expect(alert).toHaveText(`Taux d\u2019apprentissage${NNBSP}: «${NNBSP}vite${NNBSP}» n\u2019est pas un nombre`);
  await w.getByLabel('Pas', { exact: true }).fill('');
  await w.getByRole('button', { name: 'Entraîner' }).click();
  await expect(alert).toHaveText(`Pas${NNBSP}: saisissez un nombre`);
  await w.getByLabel('Pas', { exact: true }).fill('40');
  await w.getByLabel('Taux d\u2019apprentissage').fill('0,003');
  await w.getByRole('button', { name: 'Entraîner' }).click();
  await expect(w.locator('.outcome')).toContainText('Après 40 pas, la perte sur le texte réservé est de', { timeout: 45_000 });
  await expect(w.locator('.outcome')).toHaveText(/ \d(,\d{1,3})? nats\u202f: /);
  await expect(alert).toBeHidden();
  await expect(w.locator('.status')).toHaveText(/^Pas 40 sur 40 · [\d\u202f]+ pas\/s · \d+(,\d)? s$/);
  await expect(w.locator('.where')).toHaveText(`L\u2019entraînement tourne dans un worker en arrière-plan${NNBSP}: la page reste réactive.`);
  await expect(w.locator('.sample figcaption')).toHaveText(`Texte qu\u2019écrit le modèle après «${NNBSP}The${NNBSP}», au pas 40`);
  // The label counts the training losses drawn: every step's, the last slice's too.
  const label = await w.locator('.loss-chart').getAttribute('aria-label');
  expect(label).toMatch(/^Perte en fonction du pas d’entraînement, 40 pas sur 40\. Dernière perte d’entraînement\u202f: \d(,\d{1,3})?\. Perte sur le texte réservé\u202f: \d(,\d{1,3})? au pas 40\. /);
  expect(await labelsFit(w)).toBe(true);

  // The attributes it could not use, said in French.
  const bad = p.locator('tb-train').nth(1);
  await expect(bad.getByRole('alert').first()).toHaveText(`steps «${NNBSP}beaucoup${NNBSP}» n\u2019est pas un nombre${NNBSP}; 600 est utilisé`);
  await expect(bad.getByRole('alert').nth(1)).toHaveText(
    `norm «${NNBSP}côté${NNBSP}» n\u2019est pas une position de la norme${NNBSP}: choisissez pre ou post${NNBSP}; pre est utilisé`,
  );
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test('<tb-train> in Simplified Chinese', async ({ page: p }) => {
  test.setTimeout(60_000);
  const problems = await open(p, 'zh-CN', '<tb-train steps="20"></tb-train>');
  const w = p.locator('tb-train');
  const d = await defaults(p);
  await expect(w.locator('h3')).toHaveText('训练 TinyGPT');
  for (const label of ['随机种子', '步数', '学习率', '预热步数', '块数', '归一化位置']) await expect(w.getByLabel(label, { exact: true })).toBeVisible();
  await expect(w.locator('.status')).toHaveText(`尚未开始。本页正文共 ${await intl(p, 'zh-CN', d.corpus.characters)} 个字符，其中最后 ${await intl(p, 'zh-CN', d.corpus.held_out_symbols)} 个留作留出文本。`);
  await expect(w.locator('.loss-chart .axis-title')).toHaveText(['损失（nats）', '步数']);
  await expect(w.locator('.loss-chart .reference text')).toHaveText(await referenceLabels(p, 'zh-CN', d.reference, { uniform: '均匀', unigram: '一元', bigram: '二元' }));
  await w.getByRole('button', { name: '训练', exact: true }).click();
  await expect(w.locator('.outcome')).toContainText(/^训练 20 步后，留出损失为 \d(\.\d{1,3})? nats：/, { timeout: 45_000 });
  await expect(w.locator('.status')).toHaveText(/^第 20 \/ 20 步 · 每秒 [\d,]+ 步 · [\d.]+ 秒$/);
  await expect(w.locator('.where')).toHaveText('训练在后台 worker 中进行：页面保持响应。');
  await expect(w.locator('.sample figcaption')).toHaveText('第 20 步时模型接在“The ”之后写出的文本');
  expect(await w.locator('.loss-chart').getAttribute('aria-label')).toMatch(/^损失随训练步数的变化，已训练 \d+ \/ 20 步。最新训练损失 \d(\.\d{1,3})?。第 20 步时留出损失为 \d(\.\d{1,3})?。参考线：/);
  expect(problems).toEqual([]);
});

test('a change of language in the middle of a run words the view again, and the run goes on', async ({ page: p }) => {
  test.setTimeout(60_000);
  const problems = await open(p, 'en', '<tb-train steps="20000"></tb-train>');
  const w = p.locator('tb-train');
  await expect(w.locator('h3')).toHaveText('Train TinyGPT');
  await w.getByLabel('Blocks', { exact: true }).fill('1');
  await w.getByRole('button', { name: 'Train' }).click();
  await expect(w.locator('.status')).toContainText(/^Step [1-9][\d,]* of 20,000/, { timeout: 20_000 });
  await w.getByRole('button', { name: 'Pause' }).click();
  await expect(w.locator('.outcome')).toHaveText(/^Paused at step [\d,]+\.$/);
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  await expect(w.locator('h3')).toHaveText('Entraîner TinyGPT');
  // The same run, paused, in French: the settings typed, the buttons' states, the progress.
  await expect(w.getByLabel('Blocs')).toHaveValue('1');
  await expect(w.getByLabel('Blocs')).toBeDisabled();
  await expect(w.getByRole('button', { name: 'Reprendre' })).toHaveAttribute('aria-pressed', 'true');
  await expect(w.getByRole('button', { name: 'Entraîner' })).toBeDisabled();
  await expect(w.locator('.outcome')).toHaveText(/^En pause au pas [\d\u202f]+\.$/);
  await expect(w.locator('.status')).toContainText(`sur ${await intl(p, 'fr-FR', 20000)}`);
  await expect(w.locator('.where')).toHaveText(`L\u2019entraînement tourne dans un worker en arrière-plan${NNBSP}: la page reste réactive.`);
  await expect(w.locator('.loss-chart .axis-title')).toHaveText(['perte (nats)', 'pas']);
  expect(await w.locator('.loss-chart .x-axis text').allTextContents()).toContain(await intl(p, 'fr-FR', 20000));
  await w.getByRole('button', { name: 'Reprendre' }).click();
  await w.getByRole('button', { name: 'Arrêter' }).click();
  await expect(w.locator('.outcome')).toContainText(/^Après [\d\u202f]+ pas, la perte sur le texte réservé est de/, { timeout: 20_000 });
  await expect(w.getByRole('button', { name: 'Entraîner' })).toBeEnabled();
  // And back to English once it has finished: the outcome is worded again.
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await expect(w.locator('.outcome')).toContainText(/^After [\d,]+ steps the held-out loss is/);
  await expect(w.locator('.loss-chart .axis-title')).toHaveText(['loss (nats)', 'step']);
  expect(problems).toEqual([]);
});

test('where the page refuses a worker, the widget says why in French, and trains on the page', async ({ page: p }) => {
  test.setTimeout(60_000);
  const problems = recordProblems(p);
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>sans worker</title>
<meta http-equiv="Content-Security-Policy" content="worker-src 'none'">
<script type="module" src="/src/elements/train.js"></script></head><body><tb-train steps="30"></tb-train></body></html>`;
  await p.route('**/languages-train/no-worker.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await p.goto('/languages-train/no-worker.html');
  const w = p.locator('tb-train');
  await w.getByRole('button', { name: 'Entraîner' }).click();
  await expect(w.locator('.outcome')).toContainText('Après 30 pas', { timeout: 45_000 });
  await expect(w.locator('.where')).toHaveText(
    'L\u2019entraînement tourne dans la page elle-même, par tranches de quelques millisecondes (la page n\u2019autorise pas de worker d\u2019entraînement).',
  );
  // The refusal is the browser's report of the policy doing its job, and nothing else went wrong.
  expect(problems.filter((m) => !/Content Security Policy|Refused to create a worker/i.test(m))).toEqual([]);
});

test('<tb-norm-race> draws its loss chart with French axes and lines', async ({ page: p }) => {
  const problems = await open(p, 'fr', '<tb-norm-race></tb-norm-race>', 'tb-norm-race');
  const w = p.locator('tb-norm-race');
  const { reference } = await defaults(p);
  await expect(w.locator('.loss-chart .axis-title')).toHaveText(['perte (nats)', 'pas']);
  const lines = await referenceLabels(p, 'fr-FR', { unigram: reference.unigram, bigram: reference.bigram }, { uniform: 'uniforme', unigram: 'unigramme', bigram: 'bigramme' });
  await expect(w.locator('.loss-chart .reference text')).toHaveText(lines);
  expect(await labelsFit(w)).toBe(true);
  await expect(w.getByRole('img', { name: /^Perte en fonction du pas pour un modèle pre-LN/ })).toBeVisible();
  expect(problems).toEqual([]);
});
