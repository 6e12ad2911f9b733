// The library's messages in the reader's language: the wasm throws each with its English message
// and the same message as data (crate/src/messages.rs), and the widgets word it from the catalogs
// (www/src/locales/*/library.js), numbers grouped in the locale. English stays the crate's own text.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage } from './helpers.js';

const NNBSP = '\u202f';
const open = (p, lang, body, selector) => openInLanguage(p, { path: '/languages-library/test.html', lang, body, selector });

test('a library message in French: tb-number past the context, tb-memory with a bad model and batch', async ({ page: p }) => {
  const problems = await open(
    p,
    'fr',
    '<p><tb-number id="n" source="count" model="gpt2-small" seq-len="5000"></tb-number></p><tb-memory model="nope" batch="0"></tb-memory>',
    'tb-number, tb-memory',
  );
  const [five, max] = [await intlInPage(p, 'fr-FR', 5000), await intlInPage(p, 'fr-FR', 1024)];
  await expect(p.locator('#n .message')).toHaveAttribute('title', `seq_len ${five} hors limites${NNBSP}: GPT-2 small accepte de 1 à ${max} tokens`);
  const messages = p.locator('tb-memory .error[data-message]');
  await expect(messages.first()).toHaveText(new RegExp(`^modèle inconnu «${NNBSP}nope${NNBSP}»${NNBSP}: choisissez .+ ou .+, ou donnez un config\\.json de Hugging Face$`));
  await expect(messages.nth(1)).toHaveText(new RegExp(`^lot 0 hors limites${NNBSP}: les valeurs permises vont de 1 à [0-9${NNBSP}]+$`));
  expect(problems).toEqual([]);
});

test('in Simplified Chinese, and in English as the crate wrote it', async ({ page: p }) => {
  await open(p, 'zh-CN', '<p><tb-number id="n" source="count" model="gpt2-small" seq-len="5000"></tb-number></p>', 'tb-number');
  await expect(p.locator('#n .message')).toHaveAttribute('title', 'seq_len 5,000 超出范围：GPT-2 small 接受 1 到 1,024 个 token');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await expect(p.locator('#n .message')).toHaveAttribute('title', 'seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens');
});

test('a language the page added without the library\u2019s texts shows them in English, whole', async ({ page: p }) => {
  await open(p, 'de', '<p><tb-number id="n" source="count" model="gpt2-small" seq-len="5000"></tb-number></p>', 'tb-number');
  await expect(p.locator('#n .message')).toHaveAttribute('title', 'seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens');
});
