// Pure number formatting for the page. It formats what the wasm computed and never computes model
// numbers itself (the Rust crate is the one source of truth). No DOM here: unit-tested under Node.

/**
 * An en-US Intl.NumberFormat made on first use and kept (making one takes a millisecond or so; the
 * page formats thousands of numbers and should not make them before its first paint):
 * `lazyFormat(options).format(x)`.
 */
export function lazyFormat(options) {
  let made = null;
  // A format to significant digits would write a tiny value out in full ("0.000…0001", hundreds of
  // zeros for 1e-320): those read in scientific notation too. (Formats to a number of decimals round
  // a tiny value to 0, as they should.)
  const significant = options.maximumSignificantDigits !== undefined;
  return {
    format(x) {
      if (isHuge(x) || (significant && isTiny(x))) return formatScientific(x, 3);
      made ??= new Intl.NumberFormat('en-US', options);
      return made.format(x);
    },
  };
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
export function formatInteger(n) {
  if (isHuge(n)) return formatScientific(n, 3);
  checkInteger(n);
  return integerFormat.format(n);
}

/** A count to three significant digits with a suffix: 124439808 -> "124M", 1557611200 -> "1.56B". */
export function formatCompact(n) {
  if (isHuge(n)) return formatScientific(n, 3);
  checkInteger(n);
  return compactFormat.format(n);
}

const percentFormat = lazyFormat({ style: 'percent', maximumFractionDigits: 0 });
const percentFine = lazyFormat({ style: 'percent', maximumFractionDigits: 1 });

/** A share as a percentage: 0.2278 -> "23%"; tiny shares read "under 0.1%", zero "0%". */
export function formatPercent(share) {
  if (!Number.isFinite(share)) throw new TypeError(`expected a share, got ${String(share)}`);
  if (share > 0 && share < 0.001) return 'under 0.1%';
  if (share < 0.01) return percentFine.format(share);
  return percentFormat.format(share);
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
export function formatSI(x, unit) {
  if (!Number.isFinite(x)) throw new TypeError(`expected a number, got ${String(x)}`);
  if (!unit && Math.abs(x) >= 1e18) return formatScientific(x, 3); // past the largest prefix's thousands
  const pick = unit ? UNITS.find(([, u]) => u === unit) : UNITS.find(([v]) => Math.abs(x) >= v);
  if (!pick) return sig3.format(x);
  return `${sig3.format(x / pick[0])} ${pick[1]}`;
}

/** A number in scientific notation as the lessons write it: 2.2e20 -> "2.2 × 10²⁰". */
export function formatScientific(x, digits = 3) {
  if (!Number.isFinite(x)) throw new TypeError(`expected a number, got ${String(x)}`);
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  const mantissa = Number((x / 10 ** exp).toPrecision(digits));
  const sup = String(exp).replace(/[-0-9]/g, (c) => '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'['-0123456789'.indexOf(c)]);
  return `${mantissa} × 10${sup}`;
}

const bytesUnits = [
  [2 ** 40, 'TiB'],
  [2 ** 30, 'GiB'],
  [2 ** 20, 'MiB'],
  [2 ** 10, 'KiB'],
];

/** Bytes in binary units to three significant digits: 131072 -> "128 KiB". */
export function formatBytes(n) {
  if (!Number.isFinite(n)) throw new TypeError(`expected a byte count, got ${String(n)}`);
  const pick = bytesUnits.find(([v]) => n >= v);
  return pick ? `${sig3.format(n / pick[0])} ${pick[1]}` : `${formatInteger(n)} B`;
}

const decimalFormats = new Map(); // places -> a format to at most that many decimals

/** A single number to `places` decimals at most: 0.7310586 -> "0.731". */
export function formatDecimal(x, places = 3) {
  if (!decimalFormats.has(places)) decimalFormats.set(places, lazyFormat({ maximumFractionDigits: places, minimumFractionDigits: 0 }));
  return decimalFormats.get(places).format(Object.is(Math.round(x * 10 ** places), -0) ? 0 : x);
}

const fixedFormats = new Map(); // places -> a format to exactly that many decimals

/** A number to exactly `places` decimals, for a column of them: 0.5 -> "0.500". */
export function formatFixed(x, places = 3) {
  if (!fixedFormats.has(places)) fixedFormats.set(places, lazyFormat({ maximumFractionDigits: places, minimumFractionDigits: places }));
  return fixedFormats.get(places).format(Object.is(Math.round(x * 10 ** places), -0) ? 0 : x);
}

/** A vector as the lessons write it: [1.1, 1.7] -> "(1.1, 1.7)", each to `places` decimals at most. */
export function formatVector(xs, places = 3) {
  return `(${Array.from(xs, (x) => formatDecimal(x, places)).join(', ')})`;
}
