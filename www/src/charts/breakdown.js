// The breakdown bar: one horizontal bar split into the Report's groups (embeddings, attention,
// feed-forward, norms, output head, router), each as wide as the share the library computed.
// `breakdownSegments` is pure (unit-tested in tests/unit/breakdown.test.js); `renderBreakdownBar`
// draws it. The bar is decoration for sighted readers: the element lists the same groups as text.

import { s } from './svg.js';

/** The bar's width in its own units (the SVG stretches it to the container). */
export const BAR_WIDTH = 1000;
export const BAR_HEIGHT = 28;

/**
 * Segments of a bar `width` wide from groups [{ group, label, share, params }]: each
 * { group, label, share, params, x, w }, left to right in the groups' order. The widths are in
 * proportion to the shares and add up to `width` exactly (the last segment ends at `width`), even
 * if the shares do not add up to exactly 1. Zero or missing shares give zero-width segments.
 */
export function breakdownSegments(groups, width = BAR_WIDTH) {
  const shares = groups.map((g) => (Number.isFinite(g.share) && g.share > 0 ? g.share : 0));
  const total = shares.reduce((a, b) => a + b, 0);
  let before = 0;
  return groups.map((g, i) => {
    const x0 = total > 0 ? (before / total) * width : 0;
    before += shares[i];
    const x1 = total > 0 ? (i === groups.length - 1 ? width : (before / total) * width) : 0;
    return { group: g.group, label: g.label, share: g.share, params: g.params, x: x0, w: x1 - x0 };
  });
}

/** The class that colours a group (see the element's stylesheet): `g-feed_forward`, … */
export function groupClass(group) {
  return `g-${String(group).replace(/[^a-z0-9_-]/gi, '')}`;
}

/** The bar as SVG, hidden from assistive technology (the legend says the same in words). */
export function renderBreakdownBar(segments, { width = BAR_WIDTH, height = BAR_HEIGHT } = {}) {
  return s(
    'svg',
    {
      class: 'breakdown-bar',
      viewBox: `0 0 ${width} ${height}`,
      preserveAspectRatio: 'none',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    segments
      .filter((seg) => seg.w > 0)
      .map((seg) => s('rect', { class: `seg ${groupClass(seg.group)}`, x: seg.x, y: 0, width: seg.w, height, 'data-group': seg.group })),
  );
}
