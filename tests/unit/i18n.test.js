import { test } from 'node:test';
import assert from 'node:assert/strict';

import en from '../../www/src/locales/en/index.js';
import fr from '../../www/src/locales/fr/index.js';
import zhCN from '../../www/src/locales/zh-CN/index.js';
import { addLanguage, loadLanguage, resolveLocale, speakEnglish, translator } from '../../www/src/i18n.js';
import { formatCompact, formatDecimal, formatInteger, formatPercent, formatScientific } from '../../www/src/format.js';
import { formatHours, parseReaderNumber } from '../../www/src/format-cost.js';

// Every widget's English, as a page with every widget has it (each widget's module brings its own).
speakEnglish(en);

const placeholders = (entry) => {
  const texts = typeof entry === 'object' ? Object.values(entry) : [entry];
  return [...new Set(texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
};

for (const [tag, catalog] of [['fr', fr], ['zh-CN', zhCN]]) {
  test(`the ${tag} catalog has every key of the English one, and no other`, () => {
    assert.deepEqual(Object.keys(en).filter((k) => !(k in catalog)), [], 'missing');
    assert.deepEqual(Object.keys(catalog).filter((k) => !(k in en)), [], 'not in English');
  });

  test(`each ${tag} text uses the values its English one does`, () => {
    for (const key of Object.keys(en)) {
      assert.deepEqual(placeholders(catalog[key]), placeholders(en[key]), key);
      if (typeof catalog[key] === 'object') assert.ok(catalog[key].other, `${key}: a plural needs "other"`);
      assert.notEqual(String(catalog[key]).trim(), '', `${key} is blank`);
    }
  });
}

test('a lang resolves to its catalog, its language, Simplified Chinese, or English', () => {
  assert.equal(resolveLocale('fr'), 'fr');
  assert.equal(resolveLocale('fr-CA'), 'fr');
  assert.equal(resolveLocale('FR'), 'fr');
  for (const zh of ['zh', 'zh-CN', 'zh-Hans', 'zh-hans-cn', 'zh-SG']) assert.equal(resolveLocale(zh), 'zh-CN', zh);
  for (const other of ['', 'de', 'ar', 'zh-TW', 'x-nonsense', null]) assert.equal(resolveLocale(other), 'en', String(other));
});

test('texts take values, plurals and lists in the locale', async () => {
  await loadLanguage('fr');
  await loadLanguage('zh-CN');
  const t = translator('fr');
  assert.equal(t('masks.pairs', { name: 'Décodeur', pairs: 15, total: 25 }), 'Décodeur\u202f: 15 paires permises sur 25');
  assert.equal(t('positions.query', { count: 1, query: 2, keys: '1' }), 'requête 2\u202f: clé 1');
  assert.equal(t('positions.query', { count: 3, query: 3, keys: '1–3' }), 'requête 3\u202f: clés 1–3');
  assert.equal(t.list(['1', '2', '3']), '1, 2 et 3');
  assert.equal(translator('en').list(['1', '2', '3']), '1, 2, and 3');
  assert.equal(translator('zh-CN')('positions.query', { count: 3, query: 3, keys: '1–3' }), '查询 3：键 1–3');
  assert.deepEqual(translator('en').parts('cost.tokens', { tokens: { node: 1 } }), ['D = ', { node: 1 }, ' tokens']);
});

test('a language an author adds speaks, and what it lacks is English, never a key', () => {
  addLanguage('de', { 'masks.title': 'Aufmerksamkeit in Encoder und Decoder' });
  const t = translator(resolveLocale('de-AT'));
  assert.equal(t('masks.title'), 'Aufmerksamkeit in Encoder und Decoder');
  assert.equal(t('masks.tokens'), 'Number of tokens');
  assert.throws(() => addLanguage('de', { 'masks.nope': 'x' }), /are not keys of the English catalog/);
  assert.throws(() => addLanguage('<b>', {}), /is not a language tag/);
});

test('numbers read in each locale', () => {
  assert.equal(formatInteger(124439808, 'fr'), '124\u202f439\u202f808');
  assert.equal(formatInteger(124439808, 'zh-CN'), '124,439,808');
  assert.equal(formatInteger(124439808), '124,439,808');
  assert.equal(formatDecimal(0.7310586, 3, 'fr'), '0,731');
  assert.equal(formatPercent(0.2278, 'fr'), '23\u00a0%');
  assert.equal(formatPercent(0.0004, 'fr'), 'moins de 0,1\u00a0%');
  assert.equal(formatScientific(2.2e20, 2, 'fr'), '2,2 × 10²⁰');
  assert.equal(formatCompact(124439808, 'fr'), '124\u00a0M');
  assert.equal(formatHours(194.8, 'fr'), '195\u00a0heures (8,1\u00a0jours)');
  assert.equal(formatHours(194.8, 'zh-CN'), '195小时 (8.1天)');
});

test('a French reader types a decimal comma and spaces between thousands', async () => {
  await loadLanguage('fr');
  const t = translator('fr');
  assert.deepEqual(parseReaderNumber('x', '0,4', t), { value: 0.4 });
  assert.deepEqual(parseReaderNumber('x', '124\u202f439\u202f808', t), { value: 124439808 });
  assert.deepEqual(parseReaderNumber('x', '1,2e20', t), { value: 1.2e20 });
  assert.equal(parseReaderNumber('Itérations', 'beaucoup', t).error, 'Itérations «\u202fbeaucoup\u202f» n\u2019est pas un nombre\u202f: tapez des chiffres, par exemple 491\u202f520 ou 1,2e20');
  assert.deepEqual(parseReaderNumber('x', '491,520'), { value: 491520 });
});

test('the npm types list every key of the English catalog, and only those', async () => {
  // make dist generates the union (scripts/dist/types.mjs); read back, it is the catalog's keys in order.
  const { catalogKeyUnion } = await import('../../scripts/dist/types.mjs');
  const union = catalogKeyUnion(en);
  assert.match(union, /^export type CatalogKey =$/m);
  const keys = [...union.matchAll(/^ {2}\| '((?:[^'\\]|\\.)*)';?$/gm)].map((m) => m[1]);
  assert.deepEqual(keys, Object.keys(en));
  assert.ok(union.trimEnd().endsWith(';'));
  assert.deepEqual([...catalogKeyUnion({ "it's": 'x', 'a\\b': 'y' }).matchAll(/\| (.*?);?$/gm)].map((m) => m[1]), ["'it\\'s'", "'a\\\\b'"], 'quotes and backslashes escaped');
});
