import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  LEVELS,
  divergingLevel,
  heatmapLayout,
  levelClass,
  levelColour,
  paletteCss,
  symmetricLimit,
  valueRange,
} from '../../www/src/charts/heatmap.js';

test('valueRange and symmetricLimit read the extremes', () => {
  assert.deepEqual(valueRange([0.5, -2, 1]), { min: -2, max: 1 });
  assert.deepEqual(valueRange([]), { min: 0, max: 0 });
  assert.equal(symmetricLimit([0.5, -2, 1]), 2);
  assert.equal(symmetricLimit([0.1, 0.3]), 0.3);
  assert.equal(symmetricLimit([0, 0]), 1, 'all zeros: a limit of 1 avoids dividing by 0');
});

test('divergingLevel is symmetric around zero and clamps to ±levels', () => {
  assert.equal(divergingLevel(0, 2), 0);
  assert.equal(divergingLevel(2, 2), LEVELS);
  assert.equal(divergingLevel(-2, 2), -LEVELS);
  assert.equal(divergingLevel(1, 2), 2);
  assert.equal(divergingLevel(-1, 2), -2);
  assert.equal(divergingLevel(5, 2), LEVELS, 'past the limit stays at the end');
  assert.equal(divergingLevel(-0.01, 2), 0, 'tiny negatives are level 0, not -0');
  assert.ok(Object.is(divergingLevel(-0.01, 2), 0));
  assert.equal(divergingLevel(NaN, 2), 0);
  assert.equal(divergingLevel(1, 0), 0);
  assert.equal(divergingLevel(0.5, 1, 10), 5);
});

test('levelClass names the side and step', () => {
  assert.equal(levelClass(0), 'heat-0');
  assert.equal(levelClass(3), 'heat-p3');
  assert.equal(levelClass(-2), 'heat-n2');
});

test('levelColour mixes theme variables, never a fixed colour', () => {
  assert.equal(levelColour(0), 'var(--_heat-zero)');
  assert.equal(levelColour(LEVELS), 'var(--_positive)');
  assert.equal(levelColour(-LEVELS), 'var(--_negative)');
  assert.equal(levelColour(2, 4), 'color-mix(in srgb, var(--_positive) 50%, var(--_heat-zero))');
  assert.equal(levelColour(-1, 4), 'color-mix(in srgb, var(--_negative) 25%, var(--_heat-zero))');
  const css = paletteCss(4);
  assert.equal(css.split('\n').length, 9);
  assert.match(css, /\.heat-n4 \{ fill: var\(--_negative\); background-color: var\(--_negative\); \}/);
  assert.doesNotMatch(css, /#[0-9a-f]{3,6}/i);
});

test('heatmapLayout places a 2 × 3 matrix row-major after the gutter', () => {
  const values = [1, -1, 0, 0.5, -0.5, 0.25];
  const layout = heatmapLayout({ rows: 2, cols: 3, values, cell: 10, gutter: 20, top: 5 });
  assert.equal(layout.width, 50);
  assert.equal(layout.height, 25);
  assert.equal(layout.limit, 1);
  assert.equal(layout.min, -1);
  assert.equal(layout.max, 1);
  assert.equal(layout.cells.length, 6);
  const c = layout.cells[4]; // row 1, col 1
  assert.deepEqual(
    { row: c.row, col: c.col, x: c.x, y: c.y, size: c.size, value: c.value, level: c.level, className: c.className },
    { row: 1, col: 1, x: 30, y: 15, size: 10, value: -0.5, level: -2, className: 'heat-n2' },
  );
  assert.equal(layout.cells[0].className, 'heat-p4');
  assert.equal(layout.cells[2].className, 'heat-0');
});

test('heatmapLayout checks its shape', () => {
  assert.throws(() => heatmapLayout({ rows: 2, cols: 2, values: [1, 2, 3] }), /needs 4 values, got 3/);
  assert.throws(() => heatmapLayout({ rows: 1.5, cols: 2, values: [] }), RangeError);
  const empty = heatmapLayout({ rows: 0, cols: 4, values: [] });
  assert.equal(empty.cells.length, 0);
  assert.equal(empty.height, 0);
});
