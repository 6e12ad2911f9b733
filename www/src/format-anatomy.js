// Two formatters the anatomy widget needs beyond format.js. Pure; unit-tested in
// tests/unit/breakdown.test.js. As format.js's, each takes a locale as its last argument (English
// when it is left out).

import { formatPercent, formatSI, lazyFormat } from './format.js';

const percentOneDecimal = lazyFormat({ style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * A share of the model as a percentage: as formatPercent, but with one decimal between 1% and 10%,
 * where rounding to a whole percent hides too much (Llama 3 70B's token table is 1.5%, not "1%").
 * 0.3165 -> "32%", 0.0149 -> "1.5%", 0.0063 -> "0.6%", 0.0003 -> "under 0.1%".
 */
export function formatShare(share, locale = 'en') {
  if (Number.isFinite(share) && share >= 0.01 && share < 0.0995) return percentOneDecimal.format(share, locale);
  return formatPercent(share, locale);
}

/**
 * FLOPs as the lessons quote them: in G (10⁹) from 0.1 G up, three significant digits
 * (247601664 -> "0.248 G", 15014043648 -> "15 G"); smaller counts with their own prefix
 * (55680 -> "55.7 k").
 */
export function formatFlops(x, locale = 'en') {
  return Math.abs(x) >= 1e8 ? formatSI(x, 'G', locale) : formatSI(x, undefined, locale);
}
