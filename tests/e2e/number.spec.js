// <tb-number>: one computed number inline in a sentence (gallery page www/gallery/number.html).
import { test, expect } from '@playwright/test';
import { openPage, waitForWidgets } from './helpers.js';

/** What the element shows, and its message's tooltip if it shows one. */
function shown(page, id) {
  return page.locator(`#${id}`).evaluate((el) => ({
    text: el.shadowRoot.textContent,
    title: el.shadowRoot.querySelector('.message')?.title ?? null,
    error: el.hasAttribute('data-error'),
  }));
}

test('shows numbers from the report and from the worked examples, formatted', async ({ page }) => {
  const problems = await openPage(page, '/gallery/number.html');
  await waitForWidgets(page);
  const expected = {
    total: '124,439,808',
    'total-compact': '124M',
    'attention-share': '23%',
    'attention-each': '2,362,368',
    kaplan: '84,934,656',
    flops: '285 M',
    crossover: '4,608',
    kv: '36 KiB',
    wk: '4,096 × 1,024',
    layernorm: '-1.342',
    tiny: '12,576',
    gate0: '0.731',
    gate1: '0.269',
    train: '4.2 × 10²³',
  };
  for (const [id, text] of Object.entries(expected)) {
    expect(await shown(page, id), id).toEqual({ text, title: null, error: false });
  }
  expect(problems).toEqual([]);
});

test('sits inline in its sentence, in the text\'s own font and colour', async ({ page }) => {
  await openPage(page, '/gallery/number.html');
  await waitForWidgets(page);
  const style = await page.locator('#total').evaluate((el) => {
    const s = getComputedStyle(el);
    const p = getComputedStyle(el.parentElement);
    return {
      display: s.display,
      border: s.borderTopWidth,
      padding: s.paddingTop,
      margin: s.marginTop,
      background: s.backgroundColor,
      sameFont: s.fontFamily === p.fontFamily && s.fontSize === p.fontSize,
      sameColour: s.color === p.color,
    };
  });
  expect(style).toEqual({ display: 'inline', border: '0px', padding: '0px', margin: '0px', background: 'rgba(0, 0, 0, 0)', sameFont: true, sameColour: true });
  // One line: the number does not break its sentence into blocks.
  const li = page.locator('li').filter({ has: page.locator('#total') });
  // The sentence reads through, the number in its place (Playwright's text includes shadow roots).
  await expect(li).toHaveText(/^GPT-2 small has 124,439,808 parameters\s+\(124M\)\.$/);
  const box = await page.locator('#total').boundingBox();
  expect(box.height).toBeLessThan(40);
});

test('bad attributes show a short message with the whole explanation in its tooltip, and log nothing', async ({ page }) => {
  const problems = await openPage(page, '/gallery/number.html');
  await waitForWidgets(page);
  const cases = {
    'bad-path': ['[unknown value path: total_parms]', /try one of: model, config, seq_len, batch, total_params/],
    'bad-model': ['[unknown model "gpt-5"]', /choose one of tiny-gpt, gpt2-small/],
    'bad-seq': ['[seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens]', /accepts 1 to 1,024 tokens/],
    'bad-seq-text': ['[seq-len "abc" is not a whole number]', /^seq-len "abc" is not a whole number$/],
    'bad-source': ['[unknown source: example:nope]', /choose one of count, defaults, training-data, shipped-model-six, shipped-model, heads, heads-six, heads-untrained, training-run, example:residual/],
    'bad-format': ['[unknown format: roman]', /choose one of integer, compact, percent/],
    'bad-object': ['[not a number: an object]', /an object \(params, error_vs_non_embedding/],
  };
  for (const [id, [text, title]] of Object.entries(cases)) {
    const s = await shown(page, id);
    expect(s.text, id).toBe(text);
    expect(s.title, id).toMatch(title);
    expect(s.error, id).toBe(true);
  }
  expect(problems).toEqual([]);
});

test('changing an attribute later re-renders, bad to good and back', async ({ page }) => {
  const problems = await openPage(page, '/gallery/number.html');
  await waitForWidgets(page);
  const el = page.locator('#bad-model');
  await el.evaluate((e) => e.setAttribute('model', 'llama3-8b'));
  await expect.poll(() => shown(page, 'bad-model')).toEqual({ text: '8,030,261,248', title: null, error: false });
  await el.evaluate((e) => e.setAttribute('format', 'compact'));
  await expect.poll(() => shown(page, 'bad-model')).toEqual({ text: '8.03B', title: null, error: false });
  await el.evaluate((e) => e.setAttribute('value', 'groups.feed_forward.share'));
  await el.evaluate((e) => e.setAttribute('format', 'percent'));
  await expect.poll(async () => (await shown(page, 'bad-model')).text).toBe('70%');
  await el.evaluate((e) => e.setAttribute('model', 'nope'));
  await expect.poll(async () => (await shown(page, 'bad-model')).text).toBe('[unknown model "nope"]');
  expect(problems).toEqual([]);
});
