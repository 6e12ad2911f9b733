// The lesson's content: every widget in place and rendered, every number in the prose computed (and
// the lessons' own values), the formulas in MathML, the self-check, and an accessible name on every
// control, shadow roots included.
import { test, expect } from '@playwright/test';
import { openPage, proseText, waitForWidgets, widgetMessages, widgets } from './helpers.js';

const EXAMPLES = [
  'residual',
  'layernorm',
  'gelu',
  'feed-forward',
  'tiny-gpt',
  'tied-output',
  'masks',
  'param-count',
  'flops',
  'moe',
  'balance-loss',
];

test('every widget the lesson needs is on the page and renders without a message', async ({ page }) => {
  const problems = await openPage(page);
  await waitForWidgets(page);
  const found = await widgets(page);
  const tags = new Set(found.map((w) => w.tag));
  for (const tag of ['tb-anatomy', 'tb-param-table', 'tb-cost-chart', 'tb-memory', 'tb-training-cost', 'tb-moe', 'tb-masks', 'tb-tiny-gpt', 'tb-attention', 'tb-example', 'tb-number']) {
    expect(tags.has(tag), tag).toBe(true);
  }
  expect(found.filter((w) => w.tag === 'tb-example').map((w) => w.name)).toEqual(EXAMPLES);
  expect(await widgetMessages(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('every tb-number shows a computed value, never a message', async ({ page }) => {
  const problems = await openPage(page);
  await waitForWidgets(page);
  const numbers = await page.locator('tb-number').evaluateAll((els) =>
    els.map((el) => ({ text: el.shadowRoot.textContent, error: el.hasAttribute('data-error'), value: el.getAttribute('value') })),
  );
  expect(numbers.length).toBeGreaterThan(100);
  const bad = numbers.filter((n) => n.error || n.text === '' || n.text === '…' || n.text.startsWith('['));
  expect(bad).toEqual([]);
  expect(problems).toEqual([]);
});

test('the prose quotes the lessons\' numbers, as the crate computes them', async ({ page }) => {
  await openPage(page);
  await waitForWidgets(page);
  const expectations = {
    '#outline': ['GPT-2 small uses 12 blocks, Llama 3 70B uses 80', "TinyGPT's 2 blocks"],
    '#anatomy .try': [
      'full context of 1,024 tokens',
      'stays at 124,439,808 the whole way',
      'is 4,096 × 1,024, narrower than WQ at 4,096 × 4,096',
      'its 32 query heads share 8 key/value heads',
      'Embeddings are 32% of the small model',
    ],
    '#residual': ['start from (1, 2); attention adds (0.1, -0.3), giving (1.1, 1.7); the feed-forward adds (-0.2, 0.4), giving (0.9, 2.1)'],
    '#norms': [
      'the mean is 2.5, the variance 1.25 and the standard deviation 1.118',
      'the output is (-1.342, -0.447, 0.447, 1.342)',
      '(1 × 10⁻⁵ in GPT-2)',
    ],
    '#feed-forward': ['from 768 to 3,072 numbers', 'it gives (0.841, 10, -0.004, 0)', 'widens its 4,096 numbers to 14,336', 'holds 4,722,432 per block', "attention's 2,362,368"],
    '#tiny-gpt': [
      'a vocabulary of 50 tokens, width 32, 2 blocks and room for 16 positions, with 27,328 parameters',
      '38,597,376 parameters in GPT-2 small',
      'the logits are (1, -1, -2)',
      // Where the heads look (CharModel.head_summaries; `tblock heads --model shipped` prints the same).
      'held-out text, 1,665 queries in all, a head that spread its weight evenly over the past would put 16% on any one character',
      'none puts more than 16% on the character just before the query',
      'Block 0, head 1 puts 44% of its weight on the previous character, the most of any head',
      'The most focused head is block 0, head 1, with an entropy of 0.99 nats; the broadest, block 1, head 0',
    ],
    '#masks': ['For 3 tokens that is 9 allowed pairs against 6'],
    '#parameters': [
      'a vocabulary of 50,257, a context of 1,024, width 768 and 12 blocks',
      'One block holds 7,087,872 parameters and all of them together 85,054,464',
      'The token table alone holds 38,597,376, or 31% of the model',
      '(12,576 per block, 27,328 in all)',
      '124,402,944 without them, 124,439,808 with',
      'it gives 84,934,656; the exact count without the embeddings is 85,056,000',
      'down to 5% of the model',
    ],
    '#cost': [
      'at T = 1,024 the weights account for 247 MFLOPs per token and attention for 37.7 MFLOPs, 285 MFLOPs together',
      "attention's term is 18% of the arithmetic",
      'T = 6d = 4,608 tokens, past the 1,024 GPT-2 accepts',
      'a model of 7B parameters costs about 1.4 × 10¹⁰ FLOPs',
      'A model of 70B parameters trained on 1T tokens comes to 4.2 × 10²³ FLOPs',
      'comes to 4.2 × 10²³ FLOPs',
      'feeds it 295B tokens. At N = 123,653,376 that is 2.2 × 10²⁰ FLOPs, or 195 hours',
      'peak of 312 TFLOP/s',
      'GPT-2 small is 237 MiB in 16-bit floats',
      '36 KiB per token',
    ],
    '#moe': [
      'With scores (2, 1, 0.5, -1) and k = 2, experts (0, 1) are kept with gates 0.731 and 0.269; experts (2, 3) are skipped',
      'one expert holds 2,128 parameters and the layer 17,152, yet a token touches only 4,384',
      'Mixtral 8x7B holds 46.7B parameters and uses 12.9B per token',
      'It is 1 when four experts share the work evenly and 4 when every token goes to one expert',
    ],
  };
  for (const [selector, phrases] of Object.entries(expectations)) {
    const text = await proseText(page, selector);
    for (const phrase of phrases) expect(text, selector).toContain(phrase);
  }
});

test('the formulas are MathML, rendered by the browser', async ({ page }) => {
  await openPage(page);
  const maths = page.locator('math[display="block"]');
  expect(await maths.count()).toBeGreaterThanOrEqual(10);
  const info = await maths.evaluateAll((ms) =>
    ms.map((m) => ({
      mathml: m instanceof MathMLElement && m.namespaceURI === 'http://www.w3.org/1998/Math/MathML',
      height: m.getBoundingClientRect().height,
      text: m.textContent.replace(/\s+/g, ''),
    })),
  );
  expect(info.every((m) => m.mathml && m.height > 10)).toBe(true);
  const all = info.map((m) => m.text).join(' | ');
  for (const piece of ['LayerNorm(x)=γ⊙', 'RMSNorm(x)=γ⊙', 'FFN(x)=W2GELU(W1x+b1)+b2', 'SwiGLU(x)=W2(SiLU(Wgx)⊙W1x)', '2N+4·L·T·d', '6·N·D', 'N≈12Ld2']) {
    expect(all).toContain(piece);
  }
  // The square root and the fractions are real MathML layout, not text.
  await expect(page.locator('#norms msqrt')).toHaveCount(2);
  await expect(page.locator('#norms mfrac').first()).toBeVisible();
});

test('the self-check answers open on request and hold computed numbers', async ({ page }) => {
  const problems = await openPage(page);
  await waitForWidgets(page);
  const items = page.locator('#self-check details');
  const n = await items.count();
  expect(n).toBeGreaterThanOrEqual(5);
  expect(n).toBeLessThanOrEqual(12);
  const answers = [
    ['124,439,808 at 8 tokens, 124,439,808 at 1,024', 'from 8 × 8 to 1,024 × 1,024'],
    ['32 query heads share 8', '4,096 × 1,024 while WQ is 4,096 × 4,096'],
    ['Mean 2.5, standard deviation 1.118, output (-1.342, -0.447, 0.447, 1.342)', 'Scaled by 100 the output is the same'],
    ['Of its 7,087,872, attention holds 2,362,368, the feed-forward 4,722,432', 'each of the two norms 1,536'],
    ['18% at 1,024 tokens', '6d = 4,608 tokens, beyond GPT-2\'s context of 1,024'],
    ['Experts (0, 1) are kept, with gates 0.731 and 0.269'],
    ['2.2 × 10²⁰ FLOPs for 295B tokens: 195 hours'],
    ['Before, no more than an even spread gives, 16% against 16% for even weights', 'block 0, head 1 puts 44% there'],
    ['the embedding and every earlier block\'s edits are lost at once', 'the dotted line of a uniform guess'],
    ['The post-LN one', 'tblock race --seeds 0,1,2,3,4,5'],
    ['The shallowest', 'each adds a fixed cost beyond its arithmetic'],
  ];
  for (let i = 0; i < n; i++) {
    const item = items.nth(i);
    const answer = item.locator('p');
    await expect(item).not.toHaveAttribute('open');
    await expect(answer).toBeHidden();
    await item.locator('summary').click();
    await expect(item).toHaveAttribute('open', '');
    await expect(answer).toBeVisible();
    const text = await proseText(page, `#self-check details:nth-of-type(${i + 1}) p`);
    for (const phrase of answers[i]) expect(text).toContain(phrase);
    // Keyboard too: Enter on the summary closes it again.
    await item.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(item).not.toHaveAttribute('open');
  }
  const questions = await proseText(page, '#self-check');
  expect(questions).toContain('GPT-2 small reads 1,024 tokens instead of 8');
  expect(questions).toContain('A router scores four experts (2, 1, 0.5, -1) and keeps the top 2');
  expect(problems).toEqual([]);
});

test('every control on the page, inside the widgets too, has an accessible name', async ({ page }) => {
  await openPage(page);
  await waitForWidgets(page);
  // The browser's own accessibility tree (shadow roots included), as assistive technology gets it.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const INTERACTIVE = new Set([
    'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'radio', 'slider', 'spinbutton',
    'switch', 'tab', 'textbox', 'searchbox', 'option',
  ]);
  const controls = nodes.filter((n) => !n.ignored && INTERACTIVE.has(n.role?.value));
  expect(controls.length).toBeGreaterThan(30);
  const unnamed = controls.filter((n) => !String(n.name?.value ?? '').trim()).map((n) => `${n.role.value} (backend node ${n.backendDOMNodeId})`);
  expect(unnamed).toEqual([]);

  // And the same from the DOM side: every input, select, textarea and button in every shadow root.
  const domUnnamed = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
    const out = [];
    for (const root of roots) {
      for (const el of root.querySelectorAll('input, select, textarea, button')) {
        if (el.type === 'hidden' || el.closest('[hidden]')) continue;
        const labelled =
          el.getAttribute('aria-label')?.trim() ||
          el.getAttribute('aria-labelledby')?.split(/\s+/).some((id) => root.getElementById?.(id)?.textContent.trim() || root.querySelector?.(`#${CSS.escape(id)}`)?.textContent.trim()) ||
          [...(el.labels ?? [])].some((l) => l.textContent.trim()) ||
          (el.localName === 'button' && el.textContent.trim()) ||
          el.getAttribute('title')?.trim();
        if (!labelled) out.push(`${root.host?.localName ?? 'page'} ${el.localName}[${el.type ?? ''}]`);
      }
    }
    return out;
  });
  expect(domUnnamed).toEqual([]);
});
