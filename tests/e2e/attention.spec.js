// <tb-attention>: where each head of TinyGPT looks, from the shipped weights with no training: a map
// per head, its table alternative with the figures `tblock inspect` prints for the same model and
// text (tests/e2e/fixtures/attention-shipped.json, checked against the command by
// crate/tests/cli_inspect.rs), typing, the keyboard on a map, the model switch and bad input.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const RECORDED = JSON.parse(readFileSync(new URL('./fixtures/attention-shipped.json', import.meta.url), 'utf8'));

/** A map's table as text: [[row header, cell, …], …]. */
function tableRows(table) {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
}

test('the shipped model\'s maps, drawn without training, and their tables hold what tblock inspect prints', async ({ page }) => {
  const problems = await openPage(page, '/gallery/attention.html');
  const att = page.locator('tb-attention').first();
  await expect(att.getByLabel('Text')).toHaveValue('the residual');
  await expect(att.getByLabel('Model')).toHaveValue('shipped');
  await expect(att.locator('.result')).toContainText('12 positions, 2 blocks of 4 heads');
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  await expect(att.getByRole('slider', { name: 'Block 1, head 3: attention weights; choose the query position' })).toBeVisible();
  // Drawn: the first query's one weight (1.0) in the darkest shade; the causal triangle empty
  // (nothing painted inside a cell there, only its dashed outline along the diagonal).
  const pixels = await att.locator('figure.head-map canvas').first().evaluate((canvas) => {
    const r = devicePixelRatio;
    const { data, width } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height); // one read
    const at = (x, y) => [...data.slice((Math.round(y * r) * width + Math.round(x * r)) * 4, (Math.round(y * r) * width + Math.round(x * r)) * 4 + 4)];
    // The cells start after a gutter of 16 x 14 px for the characters; a cell is 12 px.
    return { first: at(16 + 6, 14 + 6), masked: at(16 + 5 * 12 + 6, 14 + 6), width: canvas.width / r };
  });
  expect(pixels.first[3], 'the first query\'s cell is painted').toBe(255);
  expect(pixels.masked, 'a masked cell is left empty').toEqual([0, 0, 0, 0]);
  expect(pixels.width, 'room for all 16 positions, however short the text').toBe(16 + 16 * 12);

  // The tables, built when opened: a caption per head, a row per query, empty cells after it.
  for (const block of [0, 1]) await att.locator(`details.tables[data-block="${block}"] summary`).click();
  const tables = att.locator('table.weights-table');
  await expect(tables).toHaveCount(8);
  await expect(tables.locator('caption')).toHaveText([0, 1].flatMap((b) => [0, 1, 2, 3].map((hd) => `Block ${b}, head ${hd}`)));
  const n = RECORDED.ids.length;
  for (const [b, hd] of [
    [0, 0],
    [0, 1],
    [1, 3],
  ]) {
    const rows = await tableRows(att.locator(`table[data-block="${b}"][data-head="${hd}"]`));
    expect(rows).toHaveLength(n);
    rows.forEach((cells, q) => {
      expect(cells[0]).toBe(`${q + 1} ${q === 3 ? '\u2423' : RECORDED.text[q]}`);
      const expected = RECORDED.attentions[b][hd][q].map((w, k) => (k <= q ? w.toFixed(3) : ''));
      expect(cells.slice(1), `block ${b}, head ${hd}, query ${q + 1}`).toEqual(expected);
    });
  }
  expect(problems).toEqual([]);
});

test('typing redraws the maps and the open tables; the keyboard moves the query and picks a head', async ({ page }) => {
  const problems = await openPage(page, '/gallery/attention.html');
  const att = page.locator('tb-attention').first();
  await att.locator('details.tables[data-block="0"] summary').click();
  const text = att.getByLabel('Text');
  await text.fill('abc');
  await expect(text).toBeFocused();
  await expect(att.locator('.result')).toContainText('"abc": 3 positions');
  await expect(att.locator('table[data-block="0"][data-head="0"] tbody tr')).toHaveCount(3);
  await expect(att.locator('table[data-block="0"][data-head="0"] tbody tr').first().locator('td')).toHaveText(['1.000', '', '']);

  const map = att.getByRole('slider', { name: /^Block 0, head 2:/ });
  await map.focus();
  await expect(map).toHaveAttribute('aria-valuenow', '3');
  await expect(map).toHaveAttribute('aria-valuetext', /^query 3 of 3, "c": most weight on "/);
  await page.keyboard.press('ArrowUp');
  await expect(map).toHaveAttribute('aria-valuenow', '2');
  await expect(att.locator('.query-note').first()).toHaveText('What the query at position 2, "b", looks at in each head:');
  // Every map follows the one query, and each head's strip of the text is drawn under the maps.
  await expect(att.getByRole('slider', { name: /^Block 1, head 0:/ })).toHaveAttribute('aria-valuenow', '2');
  await expect(att.getByRole('slider', { name: /^Block 1, head 0:/ })).toHaveAttribute('aria-valuetext', /^query 2 of 3, "b": most weight on "/);
  await expect(att.locator('p.strip canvas')).toHaveCount(8);
  await page.keyboard.press('Home');
  await expect(map).toHaveAttribute('aria-valuenow', '1');
  await page.keyboard.press('End');
  await expect(map).toHaveAttribute('aria-valuenow', '3');
  await page.keyboard.press('Enter');
  await expect(att.locator('.focus h4')).toHaveText('Block 0, head 2');
  // ← and → move between the heads of a block: one Tab stop a block, on the map last used.
  await page.keyboard.press('ArrowRight');
  const head3 = att.getByRole('slider', { name: /^Block 0, head 3:/ });
  await expect(head3).toBeFocused();
  await expect(head3).toHaveAttribute('tabindex', '0');
  await expect(map).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('ArrowRight');
  await expect(head3).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(att.locator('details.tables[data-block="0"] summary')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(att.getByRole('slider', { name: /^Block 1, head 0:/ })).toBeFocused();
  await expect(att.getByRole('button', { name: 'Block 0, head 2' })).toHaveAttribute('aria-pressed', 'true');
  await expect(att.locator('.focus p')).toContainText('The query at position 3, "c", scores its 3 visible keys from');
  // The pointer: a row of another map chooses that query and that head.
  const other = att.getByRole('slider', { name: /^Block 1, head 1:/ });
  await other.click({ position: { x: 4, y: 4 } });
  await expect(other).toHaveAttribute('aria-valuenow', '1');
  await expect(att.locator('.focus h4')).toHaveText('Block 1, head 1');
  expect(problems).toEqual([]);
});

test('bad text keeps the last good maps and says what is allowed; unknown characters are named', async ({ page }) => {
  const problems = await openPage(page, '/gallery/attention.html');
  const att = page.locator('tb-attention').first();
  const text = att.getByLabel('Text');
  await text.fill('seventeen letters');
  await expect(att.getByRole('alert')).toHaveText('text of 17 characters is out of range: the model reads at most 16 characters at once: shorten it');
  await expect(att.locator('.stale')).toHaveText('The maps still show "the residual", read by trained on this page (shipped, 2 blocks).');
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  await text.fill('');
  await expect(att.getByRole('alert')).toContainText('type at least one character');
  await text.fill('Ärger');
  await expect(att.getByRole('alert')).toBeHidden();
  await expect(att.locator('.unknown')).toHaveText('Not among the model\u2019s characters, so read as the catch-all symbol \u201c\ufffd\u201d: position 1.');
  await expect(att.locator('.result')).toContainText('"\ufffdrger": 5 positions');
  // The gallery's bad attributes: named, and the widget runs the shipped model on its default text.
  const bad = page.locator('tb-attention').nth(3);
  await expect(bad.locator('[data-message]')).toHaveText(['model "gpt-5" is not a model this widget runs: choose shipped, six-blocks or untrained; using shipped']);
  await expect(bad.getByRole('alert').last()).toContainText('text of 31 characters is out of range');
  expect(problems).toEqual([]);
});

test('before training every head spreads its weight evenly; six blocks draw 24 maps', async ({ page }) => {
  const problems = await openPage(page, '/gallery/attention.html');
  const untrained = page.locator('tb-attention').nth(2);
  await expect(untrained.getByLabel('Model')).toHaveValue('untrained');
  await expect(untrained.locator('.model-note')).toContainText('as initialised, before any training');
  await untrained.locator('details.tables[data-block="1"] summary').click();
  const rows = await tableRows(untrained.locator('table[data-block="1"][data-head="2"]'));
  rows.forEach((cells, q) => {
    for (const cell of cells.slice(1, q + 2)) expect(Math.abs(Number(cell) - 1 / (q + 1)), `query ${q + 1}: ${cells}`).toBeLessThan(0.02);
  });
  // Pale but drawn: the last query's weights (1/15 each) are painted, not left like the masked cells
  // (once near the screen: a widget that went live far from it paints its maps when it comes near).
  const lastMap = untrained.locator('figure.head-map canvas').nth(6);
  await lastMap.scrollIntoViewIfNeeded();
  const painted = (canvas) => {
    const r = devicePixelRatio;
    const { data, width } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const alpha = (x, y) => data[(Math.round(y * r) * width + Math.round(x * r)) * 4 + 3];
    const y = 14 + 14 * 12 + 6; // row 15 (the last of "before training")
    return [alpha(16 + 6, y), alpha(16 + 7 * 12 + 6, y), alpha(16 + 15 * 12 + 6, 14 + 6)];
  };
  await expect.poll(() => lastMap.evaluate(painted)).toEqual([255, 255, 0]);
  // The switch: the same text through the trained model is far from even.
  const first = page.locator('tb-attention').first();
  await first.getByLabel('Model').selectOption('untrained');
  await expect(first.locator('.model-note')).toContainText('as initialised');
  await first.getByLabel('Model').selectOption('six-blocks');
  await expect(first.locator('figure.head-map')).toHaveCount(24);
  await expect(first.locator('.result')).toContainText('6 blocks of 4 heads');
  expect(problems).toEqual([]);
});

test('at 360 px in dark mode the maps wrap inside the screen, and redraw in the dark colours', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = await openPage(page, '/gallery/attention.html');
  const att = page.locator('tb-attention').first();
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  for (const box of await att.locator('figure.head-map').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(360);
  }
  // The map as an image (one readback each time).
  const firstCell = () => att.locator('figure.head-map canvas').first().evaluate((canvas) => canvas.toDataURL());
  const dark = await firstCell();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(firstCell).not.toBe(dark);
  expect(problems).toEqual([]);
});
