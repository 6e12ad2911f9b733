// The widgets in the reader's language: a widget speaks the lang of its nearest ancestor (French,
// Simplified Chinese; English for a language without a catalog), with numbers in that locale, and
// speaks again when the lang changes. (So far: the shared messages, <tb-number>, <tb-masks> and
// <tb-training-cost>; the other widgets are still English.)
import { test, expect } from '@playwright/test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { intlInPage, openInLanguage } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const open = (p, lang, body) =>
  openInLanguage(p, { path: '/languages/test.html', lang, body, selector: 'tb-masks, tb-training-cost, tb-number' });
const intl = intlInPage;

const WIDGETS = '<p>GPT-2 small: <tb-number value="total_params"></tb-number></p><tb-masks tokens="3"></tb-masks><tb-training-cost></tb-training-cost>';

test('in French: the texts, the numbers in French, and a number typed with a decimal comma', async ({ page: p }) => {
  const problems = await open(p, 'fr', WIDGETS);
  await expect(p.locator('tb-number')).toHaveText(await intl(p, 'fr-FR', 124439808));
  const masks = p.locator('tb-masks');
  await expect(masks.locator('h3')).toHaveText('L\u2019attention d\u2019un encodeur et d\u2019un décodeur');
  await expect(masks.getByLabel('Nombre de tokens', { exact: true })).toHaveValue('3');
  await expect(masks.locator('[data-side="decoder"] .caption')).toHaveText('Décodeur\u202f: 6 paires permises sur 9');
  await expect(masks.locator('[data-side="decoder"] svg[role="img"]')).toHaveAttribute('aria-label', /^Décodeur.*requête 1\u202f: clé 1; requête 2\u202f: clés 1, 2/);
  const cost = p.locator('tb-training-cost');
  await expect(cost.getByLabel('N, paramètres')).toHaveValue(await intl(p, 'fr-FR', 123653376));
  await expect(cost.locator('.result .flops')).toHaveText(`6·N·D = ${'2,2'} × 10²⁰ FLOP`);
  await expect(cost.locator('.result .time')).toContainText('Environ 195');
  await expect(cost.locator('.result .time')).toContainText('heures');
  await cost.getByLabel('Utilisation (fraction du pic)').fill('0,5');
  await expect(cost.locator('.result .time')).toContainText('Environ 390');
  await expect(cost.locator('.result .time')).toContainText('utilisation de 0,5.');
  await cost.getByLabel('Itérations').fill('beaucoup');
  await expect(cost.getByRole('alert')).toHaveText('Itérations «\u202fbeaucoup\u202f» n\u2019est pas un nombre\u202f: tapez des chiffres, par exemple 491\u202f520 ou 1,2e20');
  expect(problems).toEqual([]);
});

test('in Simplified Chinese, and in English for a language without a catalog', async ({ page: p }) => {
  let problems = await open(p, 'zh-Hans', WIDGETS);
  await expect(p.locator('tb-masks').locator('h3')).toHaveText('编码器与解码器的注意力');
  await expect(p.locator('tb-masks [data-side="encoder"] .caption')).toHaveText('编码器：9 对中允许 9 对');
  await expect(p.locator('tb-training-cost .result .time')).toContainText('单个加速器约需 195');
  expect(problems).toEqual([]);
  problems = await open(p, 'de', WIDGETS);
  await expect(p.locator('tb-masks').locator('h3')).toHaveText('Encoder and decoder attention');
  await expect(p.locator('tb-training-cost .result .flops')).toHaveText('6·N·D = 2.2 × 10²⁰ FLOPs');
  expect(problems).toEqual([]);
});

test('a French box inside an English page, and the page\u2019s lang changed while it runs', async ({ page: p }) => {
  const problems = await open(p, 'en', `<tb-masks id="en" tokens="3"></tb-masks><section lang="fr"><tb-masks id="fr" tokens="3"></tb-masks></section>`);
  await expect(p.locator('#en').locator('h3')).toHaveText('Encoder and decoder attention');
  await expect(p.locator('#fr').locator('h3')).toHaveText('L\u2019attention d\u2019un encodeur et d\u2019un décodeur');
  // The document turns Chinese: the English widget follows; the French box keeps its own lang.
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(p.locator('#en').locator('h3')).toHaveText('编码器与解码器的注意力');
  await expect(p.locator('#fr').locator('h3')).toHaveText('L\u2019attention d\u2019un encodeur et d\u2019un décodeur');
  // The box loses its lang: it follows the document.
  await p.evaluate(() => document.querySelector('section').removeAttribute('lang'));
  await expect(p.locator('#fr').locator('h3')).toHaveText('编码器与解码器的注意力');
  // In its new language it still answers the reader.
  await p.locator('#en').getByLabel('token 数量', { exact: true }).fill('4');
  await expect(p.locator('#en [data-side="decoder"] .caption')).toHaveText('解码器：16 对中允许 10 对');
  expect(problems).toEqual([]);
});

test('the French edition of the lesson, served and offline: French prose, French figures, and a link to the English one', async ({ page: p }) => {
  for (const open of [() => p.goto('/fr/'), () => p.goto(pathToFileURL(`${ROOT}dist/transformer-block-lesson-fr.html`).href)]) {
    const errors = [];
    p.on('pageerror', (err) => errors.push(err.message));
    await open();
    await expect(p.locator('html')).toHaveAttribute('lang', 'fr');
    await p.evaluate(() => Promise.all([...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-')).map((el) => el.rendered)));
    const total = p.locator('tb-number[value="total_params"]').first();
    await expect(total).toHaveText(/^\d{1,3}([\u202f\u00a0 ]\d{3})+$/);
    await expect(p.locator('tb-masks').first().locator('h3')).toHaveText('L\u2019attention d\u2019un encodeur et d\u2019un décodeur');
    expect(errors).toEqual([]);
  }
  await p.goto('/fr/');
  await expect(p.getByRole('link', { name: 'Read in English' })).toHaveAttribute('href', '../');
  await p.goto('/');
  await expect(p.getByRole('link', { name: 'Lire en français' })).toHaveAttribute('href', 'fr/');
});
