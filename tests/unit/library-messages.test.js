// The library's messages as data (crate/src/messages.rs), worded in the reader's language by
// www/src/library-messages.js: whole or not at all. The data here has the shape the wasm throws
// (crate/tests/web_hostile.rs checks every facade error carries it).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import en from '../../www/src/locales/en/library.js';
import fr from '../../www/src/locales/fr/library.js';
import zhCN from '../../www/src/locales/zh-CN/library.js';
import { addLanguage, loadLanguage, translator } from '../../www/src/i18n.js';
import { wordMessage } from '../../www/src/library-messages.js';

const batch = {
  code: 'outOfRange',
  values: { what: { code: 'batch', values: {} }, value: 5000, allowed: { code: 'allowedRange', values: { low: 1, high: 4096 } } },
};

test('a message is worded in French, its numbers in the French way', async () => {
  await loadLanguage('fr');
  assert.equal(wordMessage(batch, translator('fr')), 'lot 5\u202f000 hors limites\u202f: les valeurs permises vont de 1 à 4\u202f096');
  const preset = { code: 'unknownPreset', values: { name: 'nope', allowed: ['gpt2-small', 'llama3-8b', 'mixtral'] } };
  assert.equal(
    wordMessage(preset, translator('fr')),
    'modèle inconnu «\u202fnope\u202f»\u202f: choisissez gpt2-small, llama3-8b ou mixtral, ou donnez un config.json de Hugging Face',
  );
});

test('a config.json told what is wrong with a field, in French', async () => {
  await loadLanguage('fr');
  const heads = {
    code: 'invalidField',
    values: { field: 'n_head', problem: { code: 'headsDivide', values: { heads: '5', field: 'n_embd', width: '768' } } },
  };
  assert.equal(wordMessage(heads, translator('fr')), 'n_head\u202f: 5 têtes ne divisent pas n_embd = 768\u202f: la largeur doit se partager également entre les têtes');
});

test('and in Simplified Chinese', async () => {
  await loadLanguage('zh-CN');
  assert.equal(wordMessage(batch, translator('zh-CN')), '批大小 5,000 超出范围：允许的范围是 1 到 4,096');
});

test('English is the crate\u2019s own message; plain text or a phrase a catalog lacks leaves the message whole', async () => {
  await loadLanguage('fr');
  assert.equal(wordMessage(batch, translator('en')), null);
  const withText = { ...batch, values: { ...batch.values, allowed: { text: 'a sentence of its own' } } };
  assert.equal(wordMessage(withText, translator('fr')), null);
  assert.equal(wordMessage({ code: 'noSuchCode', values: {} }, translator('fr')), null);
  for (const junk of [undefined, null, 'text', 3, { values: {} }]) assert.equal(wordMessage(junk, translator('fr')), null);
  addLanguage('de', { 'lib.batch': 'Batch' });
  assert.equal(wordMessage(batch, translator('de')), null, 'German lacks the frame: English, whole');
});

test('each language words every code, with the values its English uses', () => {
  const names = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
  for (const [tag, catalog] of [['fr', fr], ['zh-CN', zhCN]]) {
    assert.deepEqual(Object.keys(catalog), Object.keys(en), tag);
    for (const key of Object.keys(en)) assert.deepEqual(names(catalog[key]), names(en[key]), `${tag} ${key}`);
  }
});
