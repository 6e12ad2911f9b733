// <tb-attention> and <tb-tiny-gpt> in the reader's language: French and Simplified Chinese, their
// texts from the catalogs (the maps' names and values for screen readers, the tables, the heatmaps,
// the sampler) and their numbers in the locale (the expected numbers written by Intl in the page
// itself, from the library's own figures: Chromium's ICU decides the spaces). The library's own
// messages stay English.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage, pageOverflow } from './helpers.js';

const WIDGETS = 'tb-attention, tb-tiny-gpt';

const open = (p, lang, body) => openInLanguage(p, { path: '/languages-attention/test.html', lang, body, selector: WIDGETS });
const intl = intlInPage;
const fixed3 = (p, locale, x) => intl(p, locale, x, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
const percent = (p, locale, x) => intl(p, locale, x, { style: 'percent', maximumFractionDigits: x < 0.01 ? 1 : 0 });

const NNBSP = '\u202f';

/** The shipped model's figures for `text`, from the page's wasm instance: the weight block 0, head 0 puts on its strongest key for the last query, and the first guess after the second character. */
function figures(p, text) {
  return p.evaluate(async (s) => {
    const lib = await (await import('/src/wasm.js')).fullLibrary();
    const m = lib.CharModel.shipped();
    try {
      const r = m.attention(s);
      const n = r.ids.length;
      const row = Array.from(r.weights.data.subarray((n - 1) * n, n * n));
      const read = m.read(s, 3);
      return { strongest: Math.max(...row), guess: read.next[1].next[0] };
    } finally {
      m.free();
    }
  }, text);
}

test.describe('<tb-attention>', () => {
  const body = '<tb-attention></tb-attention><tb-attention model="gpt-5"></tb-attention>';

  test('in French: heading, controls, the maps for screen readers, the chosen head and the tables', async ({ page: p }) => {
    // (An accessible name's narrow no-break spaces read as spaces: a regular expression says \s.)
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-attention').first();
    await expect(w.locator('h3')).toHaveText('Où regarde chaque tête');
    await expect(w.getByLabel('Texte', { exact: true })).toHaveValue('the residual');
    await expect(w.getByLabel('Modèle')).toHaveValue('shipped');
    await expect(w.getByLabel('Modèle').locator('option:checked')).toHaveText('entraîné sur cette page (fourni, 2 blocs)');
    await expect(w.locator('#' + (await w.getByLabel('Texte', { exact: true }).getAttribute('aria-describedby')))).toHaveText('de 1 à 16 caractères');
    await expect(w.locator('.result')).toHaveText(
      `«${NNBSP}the\u2423residual${NNBSP}»${NNBSP}: 12 positions, 2 blocs de 4 têtes. Les lignes sont les requêtes, les colonnes les clés${NNBSP}; une requête voit son propre caractère et ceux qui le précèdent.`,
    );
    await expect(w.locator('.legend')).toContainText('poids 0');
    await expect(w.locator('.block h4')).toHaveText(['Bloc 0', 'Bloc 1']);
    await expect(w.getByRole('button', { name: 'Bloc 0, tête 0', exact: true })).toHaveText('Tête 0');
    const map = w.getByRole('slider', { name: `Bloc 1, tête 3${NNBSP}: poids d\u2019attention${NNBSP}; choisissez la position de la requête` });
    await expect(map).toBeVisible();
    await expect(map).toHaveAttribute('aria-valuetext', new RegExp(`^requête 12 sur 12, «${NNBSP}l${NNBSP}»${NNBSP}: le plus de poids sur «${NNBSP}.${NNBSP}» \\(position \\d+\\) \\d,\\d{3}${NNBSP}; `));
    await expect(w.locator('.query-note').first()).toHaveText(`Ce que regarde, dans chaque tête, la requête en position 12, «${NNBSP}l${NNBSP}»${NNBSP}:`);
    // The chosen head: its scores and weights, and the strongest weight in French digits.
    const { strongest } = await figures(p, 'the residual');
    await expect(w.locator('.focus h4')).toHaveText('Bloc 0, tête 0');
    await expect(w.getByRole('group', { name: 'La tête choisie' }).locator('figcaption')).toHaveText(['Scores q·k/√dhead, avant le masque et le softmax', 'Poids, après eux']);
    await expect(w.locator('.focus p')).toContainText(`La requête en position 12, «${NNBSP}l${NNBSP}», donne à ses 12 clés visibles des scores de`);
    await expect(w.locator('.focus p')).toContainText(`le plus fort, ${await fixed3(p, 'fr-FR', strongest)}, va à «${NNBSP}`);
    await expect(w.getByRole('img', { name: new RegExp(`^Bloc 0, tête 0\\s: scores de [-\u2212]?\\d+(,\\d+)? à [-\u2212]?\\d+(,\\d+)? pour la requête en position 12$`) })).toBeVisible();
    // The tables: a caption per head, French headers and decimal commas.
    await w.getByText(`Bloc 0${NNBSP}: les poids sous forme de tableaux`).click();
    const table = w.getByRole('table', { name: 'Bloc 0, tête 0' });
    await expect(table.getByRole('columnheader').first()).toHaveText('requête \\ clé');
    await expect(table.locator('tbody tr').first().locator('td').first()).toHaveText(await fixed3(p, 'fr-FR', 1));
    // Text the model cannot read: the library's message (English), the rest in French.
    const text = w.getByLabel('Texte', { exact: true });
    await text.fill('seventeen letters');
    await expect(w.locator('.stale')).toHaveText(`Les cartes montrent encore «${NNBSP}the residual${NNBSP}», lu par le modèle «${NNBSP}entraîné sur cette page (fourni, 2 blocs)${NNBSP}».`);
    await text.fill('Ärger');
    await expect(w.locator('.unknown')).toHaveText(`Caractère inconnu du modèle, donc lu comme le symbole fourre-tout «${NNBSP}\ufffd${NNBSP}»${NNBSP}: position 1.`);
    await expect(w.locator('.result')).toContainText(`«${NNBSP}\ufffdrger${NNBSP}»${NNBSP}: 5 positions, 2 blocs de 4 têtes.`);
    // A bad attribute, named in French.
    await expect(p.locator('tb-attention').nth(1).locator('[data-message]')).toHaveText([
      `model «${NNBSP}gpt-5${NNBSP}» n\u2019est pas un modèle que ce widget fait tourner${NNBSP}: choisissez shipped, six-blocks ou untrained${NNBSP}; shipped est utilisé`,
    ]);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', '<tb-attention model="untrained" seed="7" text="abc"></tb-attention>');
    const w = p.locator('tb-attention');
    await expect(w.locator('h3')).toHaveText('每个注意力头在看哪里');
    await expect(w.getByLabel('模型').locator('option:checked')).toHaveText('未训练（种子 7）');
    await expect(w.locator('.result')).toHaveText('“abc”：3 个位置，2 个块，每块 4 个头。行是查询，列是键；每个查询能看到自己以及它之前的字符。');
    await expect(w.getByRole('slider', { name: '第 0 块，头 2：注意力权重；选择查询位置' })).toHaveAttribute('aria-valuetext', /^第 3 个查询（共 3 个），“c”：权重最大的是 “.”（位置 \d）\d\.\d{3}，/);
    await expect(w.locator('.query-note').first()).toHaveText('位置 3 的查询“c”在每个头中看向哪里：');
    await expect(w.locator('.focus h4')).toHaveText('第 0 块，头 0');
    await expect(w.locator('.focus p')).toContainText('位置 3 的查询“c”给它能看到的 3 个键打分');
    await w.getByText('第 1 块：以表格列出权重').click();
    await expect(w.getByRole('table', { name: '第 1 块，头 3' }).getByRole('columnheader').first()).toHaveText('查询 \\ 键');
    await expect(w.getByRole('table', { name: '第 1 块，头 3' }).locator('tbody tr').first().locator('td').first()).toHaveText(await fixed3(p, 'zh-CN', 1));
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-tiny-gpt>', () => {
  const body = '<tb-tiny-gpt></tb-tiny-gpt><tb-tiny-gpt seed="-3"></tb-tiny-gpt>';

  test('in French: the reading, the heatmaps, the guesses and the sampler', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-tiny-gpt').first();
    await expect(w.locator('h3')).toHaveText('TinyGPT lit');
    await expect(w.getByLabel('Texte', { exact: true })).toHaveValue('the residual');
    const options = w.getByLabel('Modèle').locator('option');
    for (const [i, name] of ['entraîné sur cette page (fourni)', 'non entraîné (graine 0)', 'le modèle que j\u2019ai entraîné'].entries()) await expect(options.nth(i)).toHaveText(name);
    await expect(w.locator('.shape')).toHaveText(['flux 12 × 32', 'logits 12 × 50']);
    await expect(w.locator('.result')).toContainText(`«${NNBSP}the residual${NNBSP}» → identifiants (42, 30, 27, 1, 40, 27, 41, 31, 26, 43, 23, 34) → flux 12 × 32`);
    await expect(w.getByRole('img', { name: new RegExp(`^Carte de chaleur logits 12 × 50\\s: valeurs de [-\u2212]?\\d+(,\\d+)? à [-\u2212]?\\d+(,\\d+)?\\s; les lignes sont les positions`) })).toBeVisible();
    await expect(w.locator('figcaption .range').first()).toHaveText(/^\(valeurs de [-\u2212]?\d+(,\d+)? à [-\u2212]?\d+(,\d+)?\)$/);
    await expect(w.locator('.legend').first()).toContainText('négatif');
    await expect(w.locator('h4').first()).toHaveText('Caractères suivants les plus probables');
    // The first guess after "th", its probability as Intl writes a French percentage.
    const { guess } = await figures(p, 'the residual');
    await expect(w.locator('.next-chars li').nth(1)).toContainText(`après h (position 2 sur 12)${NNBSP}: ${guess[0] === ' ' ? '\u2423' : guess[0]} ${await percent(p, 'fr-FR', guess[1])}${NNBSP}; `);
    await expect(w.locator('p.muted').filter({ hasText: 'Meilleure proposition' })).toHaveText(/^Meilleure proposition après le dernier caractère\u202f: «\u202f.\u202f»\.$/);
    // The sampler.
    const sampling = w.getByRole('group', { name: 'Continuer le texte' });
    await expect(sampling.locator('h4')).toHaveText('Continuer le texte');
    await expect(sampling.locator('.kept-count')).toHaveText(`50 caractères gardés sur 50${NNBSP}; les 10 plus probables sont listés.`);
    await expect(sampling.locator('caption')).toHaveText(`Le caractère qui suit «${NNBSP}the residual${NNBSP}»`);
    await expect(sampling.getByRole('columnheader')).toHaveText(['Caractère suivant', 'Le modèle', 'Après les réglages']);
    await sampling.getByLabel('Top-k').fill('1');
    await expect(sampling.locator('.kept-count')).toHaveText(`1 caractère gardé sur 50${NNBSP}; les 10 plus probables sont listés.`);
    await expect(sampling.locator('tbody tr').nth(1).locator('td').last()).toHaveText('écarté');
    await expect(sampling.locator('tbody tr.kept td').last()).toHaveText(await percent(p, 'fr-FR', 1));
    await sampling.getByLabel('Température').fill('');
    await sampling.getByLabel('Température').pressSequentially('-');
    await expect(sampling.getByRole('alert')).toHaveText(`Température${NNBSP}: ce n\u2019est pas un nombre${NNBSP}; tapez un nombre, par exemple 0,8`);
    await sampling.getByLabel('Température').fill('0.8');
    await sampling.getByRole('button', { name: 'Continuer' }).click();
    await expect(sampling.locator('.written')).toBeVisible();
    await expect(sampling.locator('.write span')).toHaveText('80 caractères de plus, tirés avec ces réglages (graine 1)');
    // A bad seed, named in French.
    await expect(p.locator('tb-tiny-gpt').nth(1).locator('[data-message]')).toHaveText([`seed «${NNBSP}-3${NNBSP}» n\u2019est pas un nombre entier${NNBSP}; le modèle entraîné est affiché`]);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', '<tb-tiny-gpt text="Attention mixes positions; the feed-forward does not."></tb-tiny-gpt>');
    const w = p.locator('tb-tiny-gpt');
    await expect(w.locator('h3')).toHaveText('TinyGPT 读文本');
    await expect(w.locator('.shape')).toHaveText(['残差流 16 × 32', 'logits 16 × 50']);
    await expect(w.locator('.result')).toContainText('· 前 37 个字符超出 16 个位置，没有读入');
    await expect(w.getByRole('img', { name: /^残差流 16 × 32 热图：数值从 -?\d+(\.\d+)? 到 \d+(\.\d+)?；行是位置，列是残差流中的数$/ })).toBeVisible();
    await expect(w.locator('.next-chars li').first()).toHaveText(/^\S+ 之后（第 1 个位置，共 16 个）：\S+ \d+(\.\d)?%，/);
    const sampling = w.getByRole('group', { name: '续写' });
    await expect(sampling.locator('.kept-count')).toHaveText('保留了 50 个字符中的 50 个；列出最可能的 10 个。');
    await expect(sampling.getByLabel('Top-k')).toHaveAttribute('placeholder', '全部');
    await sampling.getByLabel('Top-k').fill('3');
    await expect(sampling.locator('.kept-count')).toHaveText('保留了 50 个字符中的 3 个；列出最可能的 10 个。');
    await expect(sampling.locator('tbody tr').nth(3).locator('td').last()).toHaveText('未保留');
    expect(problems).toEqual([]);
  });
});

test('both follow a lang changed while they run', async ({ page: p }) => {
  const problems = await open(p, 'en', '<tb-attention></tb-attention><tb-tiny-gpt></tb-tiny-gpt>');
  const att = p.locator('tb-attention');
  const gpt = p.locator('tb-tiny-gpt');
  await expect(att.locator('h3')).toHaveText('Where each head looks');
  await expect(gpt.locator('h3')).toHaveText('TinyGPT, reading');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  await expect(att.locator('h3')).toHaveText('Où regarde chaque tête');
  await expect(gpt.locator('h3')).toHaveText('TinyGPT lit');
  await expect(gpt.getByRole('button', { name: 'Continuer' })).toBeVisible();
  await expect(att.locator('.result')).toContainText('12 positions, 2 blocs de 4 têtes');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(att.locator('h3')).toHaveText('每个注意力头在看哪里');
  await expect(att.getByRole('button', { name: '第 1 块，头 2', exact: true })).toHaveText('头 2');
  await expect(gpt.locator('.shape')).toHaveText(['残差流 12 × 32', 'logits 12 × 50']);
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await expect(att.locator('h3')).toHaveText('Where each head looks');
  await expect(gpt.locator('.shape')).toHaveText(['stream 12 × 32', 'logits 12 × 50']);
  expect(problems).toEqual([]);
});

test('in French at 360 px, neither widget makes the page scroll sideways', async ({ page: p }) => {
  await p.setViewportSize({ width: 360, height: 740 });
  const problems = await open(p, 'fr', '<tb-attention></tb-attention><tb-tiny-gpt></tb-tiny-gpt>');
  const att = p.locator('tb-attention');
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  await att.getByText(`Bloc 1${NNBSP}: les poids sous forme de tableaux`).click();
  await expect(att.locator('table.weights-table')).toHaveCount(4);
  await expect(p.locator('tb-tiny-gpt .next-chars li')).toHaveCount(12);
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
