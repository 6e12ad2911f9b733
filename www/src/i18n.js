// The widgets' languages. Every string a widget shows comes from a catalog (locales/en/, fr/,
// zh-CN/: one object of key -> text each, a file a widget), worded for the reader's language; numbers go through
// Intl in the same locale (format.js). A widget speaks the `lang` of its nearest ancestor, as HTML
// does (crossing shadow roots), and English for a language there is no catalog of; a key a catalog
// lacks falls back to English's.
//
//   const locale = resolveLocale(langOf(element))   // 'en', 'fr', 'zh-CN' or an author's language
//   const t = translator(locale)
//   t('masks.title')                                 // "Encoder and decoder attention"
//   t('masks.pairs', { name, pairs: '15', total: '25' })
//   t('masks.tokens', { count: 3 })                  // a plural entry { one, other }: Intl.PluralRules
//   t.parts('cost.time', { time: h('strong', {}, '195 hours') })   // strings and nodes, for h()
//   t.list(['1', '2', '3'])                          // Intl.ListFormat: "1, 2, and 3" ('or': "1, 2, or 3")
//   t.has('lib.outOfRange')                          // whether the locale's own catalog has the key
//
// An author adds a language, or overrides some of a language's texts, with addLanguage(tag,
// catalog) (exported by the npm module); the widgets on the page render again in it.
//
// English comes with the code that shows it: the texts every widget shows (shared.js: the messages
// about attributes and numbers; library.js: the library's) are here, and each module that shows a
// widget's own texts brings them, `speakEnglish(paramTableTexts)` beside its imports. So a page that
// loads one widget's module (the folder's autoloader) carries that widget's English alone; a page
// with every widget, all of it (locales/en/index.js). tests/unit/english.test.js checks that each
// module brings the texts of every key it names.

import shared from './locales/en/shared.js';
import library from './locales/en/library.js';
import { intlLocale } from './format.js';
import { watched } from './settled.js';

const en = { ...shared, ...library };
const catalogs = new Map([['en', en]]);

/** Add English texts (a widget's file of locales/en/) to the catalog: see the top of this file. */
export function speakEnglish(...parts) {
  for (const part of parts) Object.assign(en, part);
}

/** The catalogs shipped besides English, fetched when a widget first speaks them. */
const SHIPPED = {
  fr: () => import('./locales/fr/index.js'),
  'zh-CN': () => import('./locales/zh-CN/index.js'),
};
const loading = new Map(); // locale -> promise of its catalog being in `catalogs`

/** What loadLanguage gives for a language with nothing to fetch: one promise, so it is seen settled. */
const HERE = watched(Promise.resolve());

/** Make sure `locale`'s catalog is here (a shipped one is imported once); resolves when it is. */
export function loadLanguage(locale) {
  if (!SHIPPED[locale]) return HERE; // English, or a language the page added
  if (!loading.has(locale)) {
    loading.set(
      locale,
      watched(
        SHIPPED[locale]().then((module) => {
          // An author's overrides (addLanguage before the catalog arrived) stay on top of it.
          catalogs.set(locale, { ...module.default, ...(catalogs.get(locale) ?? {}) });
        }),
      ),
    );
  }
  return loading.get(locale);
}

const listeners = new Set();

/** The languages there is a catalog of (shipped, or added by the page), English first. */
export function languages() {
  return [...new Set(['en', ...Object.keys(SHIPPED), ...catalogs.keys()])];
}

/**
 * Add a language (a BCP 47 tag: "de", "pt-BR") or override texts of one: `catalog` maps keys of the
 * English catalog to texts. What it lacks falls back to English. Widgets on the page render again.
 */
export function addLanguage(tag, catalog) {
  if (typeof tag !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/i.test(tag)) {
    throw new TypeError(`addLanguage: "${String(tag).slice(0, 40)}" is not a language tag: give one like "de" or "pt-BR"`);
  }
  if (!catalog || typeof catalog !== 'object') throw new TypeError('addLanguage: the catalog is an object of key -> text');
  const unknown = Object.keys(catalog).filter((k) => !(k in en));
  if (unknown.length) throw new TypeError(`addLanguage: ${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''} are not keys of the English catalog`);
  const key = languages().find((l) => l.toLowerCase() === tag.toLowerCase()) ?? tag;
  catalogs.set(key, { ...(catalogs.get(key) ?? {}), ...catalog });
  for (const fn of listeners) fn();
}

/** Run `fn` whenever a language is added or changed; returns a function that stops it. */
export function onLanguagesChanged(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The `lang` in force at `node`: its own, or its nearest ancestor's, across shadow roots ('' if none). */
export function langOf(node) {
  for (let n = node; n; n = n.parentNode ?? n.host) {
    if (n.nodeType === 1 && n.hasAttribute('lang')) return n.getAttribute('lang').trim();
  }
  return '';
}

const CHINESE_SIMPLIFIED = /^zh(-hans)?(-(cn|sg|my))?$/i;

/** The catalog for a `lang` value: the tag itself, its language ("fr-CA" -> fr), Simplified Chinese for zh, zh-Hans and zh-SG; else English. */
export function resolveLocale(tag) {
  const t = String(tag ?? '').trim();
  if (!t) return 'en';
  const all = languages();
  const exact = all.find((l) => l.toLowerCase() === t.toLowerCase());
  if (exact) return exact;
  if (CHINESE_SIMPLIFIED.test(t)) return 'zh-CN';
  const language = t.split('-')[0].toLowerCase();
  return all.find((l) => l.toLowerCase() === language) ?? 'en';
}

/** The text of `key` in `locale`'s catalog, else English's; undefined if neither has it. */
function entryOf(locale, key) {
  return catalogs.get(locale)?.[key] ?? en[key];
}

const translators = new Map(); // locale -> t (its texts are looked up at each call, so it outlives addLanguage)

/** `t(key, values)` for `locale`, with `t.parts` and `t.list` (see the top of this file). */
export function translator(locale = 'en') {
  if (!translators.has(locale)) translators.set(locale, makeTranslator(locale));
  return translators.get(locale);
}

/** `make()` on the first call, the same value after: an Intl object's first making loads its data. */
const once = (make) => {
  let value;
  return () => (value ??= make());
};

function makeTranslator(locale) {
  const intl = intlLocale(locale);
  // Made when first used: a module that makes its translator as it loads (a widget's) pays for
  // none of them then, and a translator that never writes a list never makes a ListFormat.
  const plural = once(() => new Intl.PluralRules(intl));
  const number = once(() => new Intl.NumberFormat(intl));
  const text = (key, values) => {
    let entry = entryOf(locale, key);
    if (entry === undefined) throw new Error(`no text for "${key}" in the English catalog`);
    if (typeof entry === 'object') entry = entry[plural().select(Number(values.count))] ?? entry.other;
    return entry;
  };
  const show = (v) => (typeof v === 'number' ? number().format(v) : v);
  const t = (key, values = {}) => text(key, values).replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(show(values[name])) : m));
  t.parts = (key, values = {}) =>
    text(key, values)
      .split(/(\{\w+\})/)
      .filter((piece) => piece !== '')
      .map((piece) => {
        const name = /^\{(\w+)\}$/.exec(piece)?.[1];
        return name && name in values ? show(values[name]) : piece;
      });
  const lists = {
    and: once(() => new Intl.ListFormat(intl, { style: 'long', type: 'conjunction' })),
    or: once(() => new Intl.ListFormat(intl, { style: 'long', type: 'disjunction' })),
  };
  t.list = (items, kind = 'and') => lists[kind]().format(items.map(String));
  t.has = (key) => catalogs.get(locale)?.[key] !== undefined;
  t.locale = locale;
  return t;
}
