// <tb-masks>: encoder and decoder attention patterns, the count of allowed pairs, and which
// outputs move when one token changes (both blocks run in the wasm).
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

test('3 tokens: 9 pairs in the encoder against 6 in the decoder', async ({ page }) => {
  const problems = await openPage(page, '/gallery/masks.html');
  const masks = page.locator('tb-masks').first();
  await expect(masks.locator('.caption')).toHaveText(['Encoder: 25 of 25 pairs allowed', 'Decoder: 15 of 25 pairs allowed']);

  const field = masks.getByRole('spinbutton', { name: 'Number of tokens' });
  await field.fill('3');
  await expect(field).toBeFocused();
  await expect(masks.locator('.caption')).toHaveText(['Encoder: 9 of 9 pairs allowed', 'Decoder: 6 of 9 pairs allowed']);
  await expect(masks.getByRole('img', { name: /^Decoder: 6 of 9 pairs allowed/ })).toHaveAttribute(
    'aria-label',
    'Decoder: 6 of 9 pairs allowed. query 1: key 1; query 2: keys 1, 2; query 3: keys 1–3. Outputs changed: 3.',
  );
  await expect(masks.getByRole('img', { name: /^Encoder: 9 of 9 pairs allowed/ })).toBeVisible();

  // The slider moves with the keyboard and the field follows.
  const slider = masks.getByRole('slider', { name: 'Number of tokens (slider)' });
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(field).toHaveValue('2');
  await expect(masks.locator('.caption')).toHaveText(['Encoder: 4 of 4 pairs allowed', 'Decoder: 3 of 4 pairs allowed']);

  const other = page.locator('tb-masks').nth(1);
  await expect(other.locator('.caption')).toHaveText(['Encoder: 9 of 9 pairs allowed', 'Decoder: 6 of 9 pairs allowed']);
  expect(problems).toEqual([]);
});

test('changing the last of 5 tokens moves output 1 in the encoder only', async ({ page }) => {
  const problems = await openPage(page, '/gallery/masks.html');
  const masks = page.locator('tb-masks').first();
  const position = masks.getByLabel('Change token at position');
  await position.selectOption('0');
  await expect(masks.locator('.outputs-changed')).toHaveText(['Outputs changed: 1–5', 'Outputs changed: 1–5']);

  await position.selectOption({ label: '5 (id 5)' });
  await expect(masks.locator('.result')).toHaveText(
    'Token 5 changes from id 5 to id 22. Rows are queries, columns keys; the dot after each row shows whether that output moved.',
  );
  const encoder = masks.locator('[data-side="encoder"]');
  const decoder = masks.locator('[data-side="decoder"]');
  await expect(encoder.locator('.outputs-changed')).toHaveText('Outputs changed: 1–5');
  await expect(decoder.locator('.outputs-changed')).toHaveText('Outputs changed: 5');
  await expect(decoder.locator('.same')).toHaveText('Unchanged: 1–4');
  // The markers: output 1 is highlighted in the encoder and not in the decoder.
  await expect(encoder.locator('circle.marker').first()).toHaveClass(/\bchanged\b/);
  await expect(decoder.locator('circle.marker').first()).not.toHaveClass(/\bchanged\b/);
  await expect(encoder.locator('circle.marker.changed')).toHaveCount(5);
  await expect(decoder.locator('circle.marker.changed')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test('a count out of range shows the library\u2019s message and the widget keeps working', async ({ page }) => {
  const problems = await openPage(page, '/gallery/masks.html');
  const masks = page.locator('tb-masks').first();
  const field = masks.getByRole('spinbutton', { name: 'Number of tokens' });
  await field.fill('17');
  await expect(masks.getByRole('alert')).toHaveText('number of tokens 17 is out of range: choose 1 to 16');
  await field.fill('4');
  await expect(masks.getByRole('alert')).toBeHidden();
  await expect(masks.locator('.caption')).toHaveText(['Encoder: 16 of 16 pairs allowed', 'Decoder: 10 of 16 pairs allowed']);

  const bad = page.locator('tb-masks').nth(2);
  await expect(bad.getByRole('alert')).toHaveText('number of tokens 17 is out of range: choose 1 to 16');
  await expect(bad.locator('.caption')).toHaveText(['Encoder: 25 of 25 pairs allowed', 'Decoder: 15 of 25 pairs allowed']);
  await bad.evaluate((el) => el.setAttribute('tokens', '2'));
  await expect(bad.getByRole('alert')).toHaveCount(0);
  await expect(bad.locator('.caption')).toHaveText(['Encoder: 4 of 4 pairs allowed', 'Decoder: 3 of 4 pairs allowed']);

  // A seed past what a double holds exactly: named once, with what is allowed; the grids stay.
  await bad.evaluate((el) => el.setAttribute('seed', '99999999999999999999'));
  await expect(bad.getByRole('alert')).toHaveText([
    'seed 1e20 is out of range: it is far too large: give a whole number up to 9,007,199,254,740,991',
  ]);
  await expect(bad.locator('.caption')).toHaveText(['Encoder: 4 of 4 pairs allowed', 'Decoder: 3 of 4 pairs allowed']);
  expect(problems).toEqual([]);
});

test('after the count grows, the box shows n labels, n x n cells and n markers beside them', async ({ page }) => {
  const problems = await openPage(page, '/gallery/masks.html');
  const masks = page.locator('tb-masks').first();
  const slider = masks.getByRole('slider', { name: 'Number of tokens (slider)' });
  for (const n of ['9', '16', '12']) {
    await slider.fill(n);
    await expect(masks.locator('.caption').first()).toHaveText(`Encoder: ${Number(n) ** 2} of ${Number(n) ** 2} pairs allowed`);
    for (const side of ['encoder', 'decoder']) {
      const panel = masks.locator(`[data-side="${side}"]`);
      // The whole 16-token drawing is there; the box shows its corner of n tokens and clips the rest.
      const seen = await panel.locator('.frame').evaluate((frame) => {
        const box = frame.getBoundingClientRect();
        const grid = frame.querySelector('.grid').getBoundingClientRect();
        const inside = (r, area) => r.width > 0 && r.left >= area.left - 0.5 && r.right <= area.right + 0.5 && r.top >= area.top - 0.5 && r.bottom <= area.bottom + 0.5;
        const markers = [...frame.querySelectorAll('circle.marker')].map((el) => el.getBoundingClientRect()).filter((r) => inside(r, box));
        return {
          labels: [...frame.querySelectorAll('text.axis')].filter((el) => inside(el.getBoundingClientRect(), grid) && inside(el.getBoundingClientRect(), box)).map((el) => el.textContent),
          highlights: [...frame.querySelectorAll('path.cells.changed-key')].filter((el) => getComputedStyle(el).visibility === 'visible').length,
          markerLefts: markers.map((r) => r.left.toFixed(1)),
          gridRight: grid.right,
          cellWidth: (frame.querySelector('.grid svg').getBoundingClientRect().width * 14) / (20 + 16 * 14),
          gridWidth: grid.width,
          boxHeight: box.height,
        };
      });
      const counted = Array.from({ length: Number(n) }, (_, i) => String(i + 1));
      expect(seen.labels).toEqual([...counted, ...counted]);
      // One column of the changed token highlighted (the last, by default).
      expect(seen.highlights).toBe(1);
      // The box: the gutter and n cells each way.
      expect(seen.gridWidth).toBeCloseTo((seen.cellWidth * (20 + Number(n) * 14)) / 14, 0);
      expect(seen.boxHeight).toBeCloseTo(seen.gridWidth, 0);
      // n markers in one column, to the right of the grid's box.
      expect(seen.markerLefts).toHaveLength(Number(n));
      expect(new Set(seen.markerLefts).size).toBe(1);
      expect(Number(seen.markerLefts[0])).toBeGreaterThan(seen.gridRight);
    }
  }
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page, '/gallery/masks.html');
  const masks = page.locator('tb-masks').first();
  await masks.getByRole('spinbutton', { name: 'Number of tokens' }).fill('16');
  await expect(masks.locator('.caption').first()).toHaveText('Encoder: 256 of 256 pairs allowed');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
