// <tb-tiny-gpt> on a real checkpoint: weights-src a Hugging Face folder gives the sampler at the
// model's own vocabulary, run in the checkpoint worker. The next token's likeliest, at temperature 1,
// are transformers' (the committed inspect.json: the ten likeliest after the same text); top-k and
// top-p keep what they say; temperature 0 writes on with the likeliest token each time, a token a
// task, shown as it grows; Stop ends it; a bad setting or text is named. Past the model's context
// a continuation is cut (it reads through a KV cache), and the widget says where.
import { test, expect } from '@playwright/test';
import { coursePage, inspected, serveFolder } from './checkpoint-pages.js';

const TEXT = 'Attention is the only stage that mixes positions.';

test.describe.configure({ timeout: 60_000 });

test('GPT-2: the next tokens are transformers\u2019, the settings keep what they say, and it writes on', async ({ page }) => {
  const want = inspected('gpt2');
  await serveFolder(page, 'gpt2');
  const problems = await coursePage(page, `<tb-tiny-gpt weights-src="/course/models/gpt2/" text="${TEXT}" temperature="1"></tb-tiny-gpt>`);
  const gpt = page.locator('tb-tiny-gpt');
  const sampling = gpt.getByRole('group', { name: 'Writing on' });
  await expect(sampling.locator('.kept-count')).toHaveText('384 of 384 tokens kept; the 10 likeliest are listed.', { timeout: 20_000 });
  await expect(gpt.locator('.pieces li')).toHaveCount(want.ids.length);
  await expect(gpt.locator('.model-note')).toContainText('stored as f32');
  await expect(sampling.locator('table caption')).toHaveText('The next token after \u201cs positions.\u201d');
  // The model's own probabilities: transformers' ten likeliest, in order, to the shown percent.
  const rows = await sampling.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.querySelector('td.before').textContent.replace('%', '')) / 100));
  expect(rows).toHaveLength(10);
  rows.forEach((p, i) => expect(Math.abs(p - want.next[i].probability), `token ${i + 1}`).toBeLessThanOrEqual(0.0051));
  await sampling.getByLabel('Top-k').fill('3');
  await expect(sampling.locator('.kept-count')).toHaveText('3 of 384 tokens kept; the 10 likeliest are listed.');
  await expect(sampling.locator('tbody tr.kept')).toHaveCount(3);
  await expect(sampling.locator('tbody tr').nth(3).locator('td').last()).toHaveText('not kept');
  // Temperature 0: the likeliest token each time; the first is transformers' likeliest.
  await sampling.getByLabel('Temperature').fill('0');
  await sampling.getByRole('button', { name: 'Write on' }).click();
  await expect(sampling.getByRole('button', { name: 'Write on' })).toBeVisible({ timeout: 30_000 });
  const written = await sampling.locator('.written').textContent();
  expect(written.startsWith(TEXT)).toBe(true);
  const first = await sampling.locator('tbody tr th').first().textContent();
  expect(written.slice(TEXT.length).startsWith(first.replaceAll('\u2423', ' ').replaceAll('\u21b5', '\n'))).toBe(true);
  // The same settings write the same text again.
  await sampling.getByRole('button', { name: 'Write on' }).click();
  await expect(sampling.getByRole('button', { name: 'Write on' })).toBeVisible({ timeout: 30_000 });
  await expect(sampling.locator('.written')).toHaveText(written);
  // Stop: the text written so far stays, and writing on works again.
  // (Clicked in one task: the test model writes its 32 tokens faster than a second click comes.)
  await sampling.getByLabel('Temperature').fill('1');
  const stopped = await gpt.evaluate((host) => {
    const [write, stop] = host.shadowRoot.querySelectorAll('.write button');
    write.click();
    const shown = !stop.hidden;
    stop.click();
    return { shown, focused: host.shadowRoot.activeElement === write, hidden: stop.hidden };
  });
  expect(stopped).toEqual({ shown: true, focused: true, hidden: true });
  await page.waitForTimeout(300);
  // Nothing more was written after the Stop.
  await expect(sampling.locator('.written')).toBeHidden();
  // Bad settings and texts are the library's messages; the table comes back with a good one.
  await sampling.getByLabel('Top-k').fill('400');
  await expect(sampling.getByRole('alert')).toHaveText(/^top-k 400 is out of range/);
  await sampling.getByLabel('Top-k').fill('');
  await expect(sampling.locator('tbody tr')).toHaveCount(10);
  await gpt.getByLabel('Text', { exact: true }).fill('');
  await expect(sampling.getByRole('alert')).toHaveText(/^tokens of the text 0 is out of range: 1 to 64/);
  expect(problems).toEqual([]);
});

test('Llama: a text written on past the model\u2019s context is cut, and the widget says from which token it reads', async ({ page }) => {
  await serveFolder(page, 'llama');
  // A text near the fixture's context of 64 tokens: the 32 written on pass it.
  const long = `${TEXT} ${TEXT}`;
  const problems = await coursePage(page, `<tb-tiny-gpt weights-src="/course/models/llama/" text="${long}" temperature="0"></tb-tiny-gpt>`);
  const gpt = page.locator('tb-tiny-gpt');
  const sampling = gpt.getByRole('group', { name: 'Writing on' });
  await expect(sampling.locator('tbody tr')).toHaveCount(10, { timeout: 20_000 });
  const tokens = await gpt.locator('.pieces li').count();
  expect(tokens > 32 && tokens <= 64, `${tokens} tokens`).toBe(true);
  await expect(sampling.locator('.reads-from')).toBeHidden();
  await sampling.getByRole('button', { name: 'Write on' }).click();
  await expect(sampling.getByRole('button', { name: 'Write on' })).toBeVisible({ timeout: 30_000 });
  // Cut once, when the text reached 65 tokens, to its last 32: it reads from token 65 - 32 + 1 = 34.
  await expect(sampling.locator('.reads-from')).toHaveText('The text passed the model\u2019s context of 64 tokens: it now reads from token 34 on.');
  expect((await sampling.locator('.written').textContent()).startsWith(long)).toBe(true);
  // New settings: the text written goes, and the note with it.
  await sampling.getByLabel('Temperature').fill('1');
  await expect(sampling.locator('.reads-from')).toBeHidden();
  // Llama's folder is three shards: the single file it is probed for first is not there.
  expect(problems.filter((p) => !/HTTP 404: .*\/model\.safetensors$/.test(p))).toEqual([]);
});
