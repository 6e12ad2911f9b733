// Pure number formatting for the page. It formats what the wasm computed and never computes model
// numbers itself (the Rust crate is the one source of truth). No DOM here: unit-tested under Node.

/**
 * The Intl locale of each language the widgets speak (i18n.js): English as the page has always
 * been written (en-US), French, Simplified Chinese. Every formatter below takes one of these tags as
 * its last argument, English when it is left out; an unknown tag formats as English.
 */
const INTL_LOCALES = { en: 'en-US', fr: 'fr-FR', 'zh-CN': 'zh-CN' };

export function intlLocale(locale = 'en') {
  if (INTL_LOCALES[locale]) return INTL_LOCALES[locale];
  // A language an author added (i18n.js addLanguage): its own tag, where Intl knows it.
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length ? locale : INTL_LOCALES.en;
  } catch {
    return INTL_LOCALES.en;
  }
}

/**
 * An Intl.NumberFormat per locale, each made on first use and kept (making one takes a millisecond
 * or so; the page formats thousands of numbers and should not make them before its first paint):
 * `lazyFormat(options).format(x, locale)`.
 */
export function lazyFormat(options) {
  const made = new Map(); // locale -> Intl.NumberFormat
  // A format to significant digits would write a tiny value out in full ("0.000…0001", hundreds of
  // zeros for 1e-320): those read in scientific notation too. (Formats to a number of decimals round
  // a tiny value to 0, as they should.)
  const significant = options.maximumSignificantDigits !== undefined;
  return {
    format(x, locale = 'en') {
      if (isHuge(x) || (significant && isTiny(x))) return formatScientific(x, 3, locale);
      const tag = intlLocale(locale);
      if (!made.has(tag)) made.set(tag, new Intl.NumberFormat(tag, options));
      return made.get(tag).format(x);
    },
  };
}

/**
 * Makes one number formatter for `lang` (a page's lang attribute; a bad tag or none: English), so
 * the number data is loaded now: the first Intl object a page makes loads it, 14 ms on this machine
 * and 56 ms at a phone's 4x (after that one, a formatter takes a tenth of a millisecond). Called in
 * a task of its own (render-queue.js), that time is not added to a widget's first render.
 */
export function loadNumberData(lang) {
  try {
    new Intl.NumberFormat(lang || INTL_LOCALES.en).format(0);
  } catch {
    new Intl.NumberFormat(INTL_LOCALES.en).format(0);
  }
}

/**
 * From here up a number is shown in scientific notation, by every formatter of the page: a
 * quadrillion written out is already hard to read, and a valid input of 1e200 parameters would
 * otherwise print hundreds of digits.
 */
export const SCIENTIFIC_FROM = 1e15;

/** From here down (and above 0) a value formatted to significant digits is shown in scientific notation. */
export const SCIENTIFIC_BELOW = 1e-6;

function isTiny(x) {
  return typeof x === 'number' && x !== 0 && Math.abs(x) < SCIENTIFIC_BELOW;
}

function isHuge(x) {
  return typeof x === 'number' && Number.isFinite(x) && Math.abs(x) >= SCIENTIFIC_FROM;
}

const integerFormat = lazyFormat({ maximumFractionDigits: 0 });
const compactFormat = lazyFormat({
  notation: 'compact',
  compactDisplay: 'short',
  maximumSignificantDigits: 3,
});

function checkInteger(n) {
  if (typeof n === 'bigint') return;
  if (!Number.isSafeInteger(n)) {
    throw new TypeError(`expected an exact integer, got ${String(n)}`);
  }
}

/** An exact count with thousands separators: 124439808 -> "124,439,808". */
export function formatInteger(n, locale = 'en') {
  if (isHuge(n)) return formatScientific(n, 3, locale);
  checkInteger(n);
  return integerFormat.format(n, locale);
}

/** A count to three significant digits with a suffix: 124439808 -> "124M", 1557611200 -> "1.56B". */
export function formatCompact(n, locale = 'en') {
  if (isHuge(n)) return formatScientific(n, 3, locale);
  checkInteger(n);
  return compactFormat.format(n, locale);
}

const percentFormat = lazyFormat({ style: 'percent', maximumFractionDigits: 0 });
const percentFine = lazyFormat({ style: 'percent', maximumFractionDigits: 1 });

/** How each locale says "under 0.1%" (the one phrase a formatter writes). */
const UNDER = { en: (x) => `under ${x}`, fr: (x) => `moins de ${x}`, 'zh-CN': (x) => `低于 ${x}` };

/** A share as a percentage: 0.2278 -> "23%"; tiny shares read "under 0.1%", zero "0%". */
export function formatPercent(share, locale = 'en') {
  if (!Number.isFinite(share)) throw new TypeError(`expected a share, got ${String(share)}`);
  if (share > 0 && share < 0.001) return (UNDER[locale] ?? UNDER.en)(percentFine.format(0.001, locale));
  if (share < 0.01) return percentFine.format(share, locale);
  return percentFormat.format(share, locale);
}

const sig3 = lazyFormat({ maximumSignificantDigits: 3 });
const UNITS = [
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/**
 * A large floating-point quantity (FLOPs) to three significant digits with an SI prefix:
 * 285055488 -> "285 M", 247601664 -> "248 M". Optional `unit` is fixed: formatSI(2.476e8, 'G') -> "0.248 G".
 */
export function formatSI(x, unit, locale = 'en') {
  if (!Number.isFinite(x)) throw new TypeError(`expected a number, got ${String(x)}`);
  if (!unit && Math.abs(x) >= 1e18) return formatScientific(x, 3, locale); // past the largest prefix's thousands
  const pick = unit ? UNITS.find(([, u]) => u === unit) : UNITS.find(([v]) => Math.abs(x) >= v);
  if (!pick) return sig3.format(x, locale);
  return `${sig3.format(x / pick[0], locale)} ${pick[1]}`;
}

/** A number in scientific notation as the lessons write it: 2.2e20 -> "2.2 × 10²⁰". */
export function formatScientific(x, digits = 3, locale = 'en') {
  if (!Number.isFinite(x)) throw new TypeError(`expected a number, got ${String(x)}`);
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  const mantissa = Number((x / 10 ** exp).toPrecision(digits));
  const sup = String(exp).replace(/[-0-9]/g, (c) => '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'['-0123456789'.indexOf(c)]);
  // The mantissa in the locale's digits and decimal sign ("2,2 × 10²⁰" in French); it is never huge
  // or tiny, so this does not come back here.
  return `${mantissaFormat.format(mantissa, locale)} × 10${sup}`;
}

const mantissaFormat = lazyFormat({ maximumFractionDigits: 20 });

const bytesUnits = [
  [2 ** 40, 'TiB'],
  [2 ** 30, 'GiB'],
  [2 ** 20, 'MiB'],
  [2 ** 10, 'KiB'],
];

/** Bytes in binary units to three significant digits: 131072 -> "128 KiB". */
export function formatBytes(n, locale = 'en') {
  if (!Number.isFinite(n)) throw new TypeError(`expected a byte count, got ${String(n)}`);
  const pick = bytesUnits.find(([v]) => n >= v);
  return pick ? `${sig3.format(n / pick[0], locale)} ${pick[1]}` : `${formatInteger(n, locale)} B`;
}

const decimalFormats = new Map(); // places -> a format to at most that many decimals

/** A single number to `places` decimals at most: 0.7310586 -> "0.731". */
export function formatDecimal(x, places = 3, locale = 'en') {
  if (!decimalFormats.has(places)) decimalFormats.set(places, lazyFormat({ maximumFractionDigits: places, minimumFractionDigits: 0 }));
  return decimalFormats.get(places).format(Object.is(Math.round(x * 10 ** places), -0) ? 0 : x, locale);
}

const fixedFormats = new Map(); // places -> a format to exactly that many decimals

/** A number to exactly `places` decimals, for a column of them: 0.5 -> "0.500". */
export function formatFixed(x, places = 3, locale = 'en') {
  if (!fixedFormats.has(places)) fixedFormats.set(places, lazyFormat({ maximumFractionDigits: places, minimumFractionDigits: places }));
  return fixedFormats.get(places).format(Object.is(Math.round(x * 10 ** places), -0) ? 0 : x, locale);
}

/** A vector as the lessons write it: [1.1, 1.7] -> "(1.1, 1.7)", each to `places` decimals at most. */
export function formatVector(xs, places = 3, locale = 'en') {
  // A French decimal comma would be ambiguous beside a comma between entries: ";" there.
  const sep = locale === 'fr' ? '\u202f; ' : ', '; // a narrow no-break space: never a line break before the ";"
  return `(${Array.from(xs, (x) => formatDecimal(x, places, locale)).join(sep)})`;
}
