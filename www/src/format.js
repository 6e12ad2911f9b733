// Pure number formatting for the page. It formats what the wasm computed and never computes model
// numbers itself (the Rust crate is the one source of truth). No DOM here: unit-tested under Node.

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat('en-US', {
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
  checkInteger(n);
  return integerFormat.format(n);
}

/** A count to three significant digits with a suffix: 124439808 -> "124M", 1557611200 -> "1.56B". */
export function formatCompact(n) {
  checkInteger(n);
  return compactFormat.format(n);
}
