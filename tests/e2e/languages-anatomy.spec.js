// <tb-anatomy> in the reader's language: the diagram, the details panel, the breakdown and TinyGPT's
// live tensors in French and in Simplified Chinese, their texts from the catalogs and their numbers
// in the locale (the expected numbers written by Intl in the page itself: Chromium's ICU decides the
// spaces); the diagram's texts stay inside their boxes, on a 360 px phone too; a lang changed while
// the widget runs. The library's own messages stay English.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage, pageOverflow } from './helpers.js';

const open = (p, lang, body) => openInLanguage(p, { path: '/languages-anatomy/test.html', lang, body, selector: 'tb-anatomy' });
const intl = intlInPage;
const percent = (p, locale, x, digits = 0) => intl(p, locale, x, { style: 'percent', maximumFractionDigits: digits });
const compact = (p, locale, x) => intl(p, locale, x, { notation: 'compact', compactDisplay: 'short', maximumSignificantDigits: 3 });

const NNBSP = '\u202f';

/** A diagram part's accessible name starts with its label (then a space, a colon, a comma, a bracket or nothing). */
const partName = (label) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([ :,\u202f：，（]|$)`);

/**
 * What of the diagram does not fit, as drawn in the page's own fonts: a text of a part reaching out of
 * its box or over another text of its row; a note's text out of its frame; the block's title and the
 * "more blocks" note out of the block's frame. [] when everything fits.
 */
function misfits(widget) {
  return widget.locator('svg.anatomy').evaluate((svg) => {
    const found = [];
    const right = (b) => b.x + b.width;
    for (const g of svg.querySelectorAll('[role="option"]')) {
      const box = g.querySelector('rect.box')?.getBBox();
      if (!box) continue; // the stream and the adds: no box
      const texts = [...g.querySelectorAll('text')].map((el) => ({ el, b: el.getBBox() }));
      for (const { el, b } of texts) {
        if (b.x < box.x - 0.5 || right(b) > right(box) + 0.5) found.push(`${g.dataset.key}: "${el.textContent}" out of its box`);
      }
      const rows = new Map();
      for (const t of texts) rows.set(Math.round(t.b.y), [...(rows.get(Math.round(t.b.y)) ?? []), t]);
      for (const row of rows.values()) {
        row.sort((a, b) => a.b.x - b.b.x);
        for (let i = 1; i < row.length; i++) {
          if (right(row[i - 1].b) > row[i].b.x + 0.5) found.push(`${g.dataset.key}: "${row[i - 1].el.textContent}" over "${row[i].el.textContent}"`);
        }
      }
    }
    const deco = svg.querySelector('g[aria-hidden="true"]');
    const frames = [...deco.querySelectorAll('rect.frame, path.frame')].map((el) => el.getBBox());
    for (const el of deco.querySelectorAll('text')) {
      const b = el.getBBox();
      const frame = frames.find((f) => b.y >= f.y - 2 && b.y <= f.y + f.height + 2 && b.x >= f.x);
      if (!frame || right(b) > right(frame) + 0.5) found.push(`note "${el.textContent}" out of its frame`);
    }
    return found;
  });
}

test.describe('in French', () => {
  test('GPT-2 small: the diagram, the details and the breakdown in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', '<tb-anatomy model="gpt2-small" seq-len="8"></tb-anatomy>');
    const w = p.locator('tb-anatomy');
    const n = (x) => intl(p, 'fr-FR', x);
    await expect(w.getByRole('slider', { name: 'Longueur de séquence T' })).toBeVisible();
    await expect(w.getByLabel('Longueur de séquence T (tokens)')).toHaveValue('8');
    const diagram = w.getByRole('listbox', { name: 'Parties de GPT-2 small' });
    await expect(diagram.getByRole('option')).toHaveCount(14);
    const names = await diagram.getByRole('option').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(names).toEqual([
      `Table des tokens ${await compact(p, 'fr-FR', 38597376)} V×d`,
      `Table des positions ${await compact(p, 'fr-FR', 786432)} P×d`,
      `Flux résiduel, 8 × 768`,
      `Normalisation avant l\u2019attention ${await compact(p, 'fr-FR', 1536)} par bloc`,
      `Attention ${await compact(p, 'fr-FR', 2362368)} par bloc WQ WK WV WO`,
      'Scores par tête 8 × 8',
      'Ajout de la sortie de l\u2019attention',
      `Normalisation avant le feed-forward ${await compact(p, 'fr-FR', 1536)} par bloc`,
      `Feed-forward ${await compact(p, 'fr-FR', 4722432)} W1 W2`,
      `Activation GELU${NNBSP}: GELU 0 paramètre`,
      'Ajout de la sortie du feed-forward',
      `Normalisation finale ${await compact(p, 'fr-FR', 1536)}`,
      `Tête de sortie liée${NNBSP}: la table des tokens Wout`,
      `Logits 8 × ${await n(50257)}, sans paramètres`,
    ]);
    await expect(w.locator('p.visually-hidden')).toContainText(`GPT-2 small${NNBSP}: les ids des tokens entrent en haut, traversent 12 blocs`);
    await expect(diagram).toContainText('Bloc 1 sur 12');
    await expect(diagram).toContainText('11 autres blocs comme celui-ci');
    expect(await misfits(w)).toEqual([]);

    // The selected part: attention.
    const details = w.getByRole('group', { name: 'Partie sélectionnée' });
    await expect(details.getByRole('heading', { level: 3 })).toHaveText('Attention');
    await expect(details).toContainText('Chacune des 12 têtes transforme chaque token');
    await expect(details.getByRole('heading', { level: 4 })).toHaveText(['Poids', 'Activations à T = 8']);
    await expect(details).toContainText('W_Q 768 × 768 (d × d)');
    await expect(details).toContainText('Sortie de l\u2019attention 1 × 8 × 768 (B × T × d)');
    await expect(details.locator('.params')).toHaveText(
      `${await n(2362368)} paramètres par bloc, ${await n(28348416)} sur l\u2019ensemble de ses 12 blocs, soit ${await percent(p, 'fr-FR', 0.23)} du modèle.`,
    );
    await diagram.getByRole('option', { name: partName('Scores') }).click();
    await expect(details).toContainText('Scores, par tête 8 × 8 (T × T)');
    await expect(details).toContainText(`Cette partie ne contient aucun paramètre${NNBSP}: elle est calculée à partir de ses entrées.`);
    await diagram.getByRole('option', { name: partName('Table des tokens') }).click();
    await expect(details.locator('.params')).toHaveText(`${await n(38597376)} paramètres, soit ${await percent(p, 'fr-FR', 0.31)} du modèle.`);
    await diagram.getByRole('option', { name: partName('Normalisation avant le feed-forward') }).click();
    await expect(details).toContainText(`normalisation avant le feed-forward, gain γ 768 (d)`);
    await expect(details).toContainText('LayerNorm ramène le vecteur de chaque token à une moyenne nulle');

    // The breakdown and the headline figures.
    await expect(w.getByRole('heading', { name: `Où se trouvent les ${await n(124439808)} paramètres de GPT-2 small` })).toBeVisible();
    const legend = w.getByRole('list', { name: 'Paramètres par groupe' }).getByRole('listitem');
    await expect(legend).toHaveText([
      `Plongements ${await compact(p, 'fr-FR', 39383808)}, ${await percent(p, 'fr-FR', 0.3165)}`,
      `Attention ${await compact(p, 'fr-FR', 28348416)}, ${await percent(p, 'fr-FR', 0.2278)}`,
      `Feed-forward ${await compact(p, 'fr-FR', 56669184)}, ${await percent(p, 'fr-FR', 0.4554)}`,
      `Normalisations ${await compact(p, 'fr-FR', 38400)}, moins de ${await percent(p, 'fr-FR', 0.001, 1)}`,
    ]);
    const headline = w.locator('dl.headline');
    await expect(headline).toContainText(`Paramètres${await n(124439808)} (${await compact(p, 'fr-FR', 124439808)})`);
    await expect(headline).toContainText(`Sans les plongements${await n(85056000)}`);
    await expect(headline).toContainText(`FLOP de la passe avant par token à T = 8${await intl(p, 'fr-FR', 0.248)} G`);

    // A T past the context: the library's message, then the widget's words in French.
    const field = w.getByLabel('Longueur de séquence T (tokens)');
    await field.fill('5000');
    await field.press('Enter');
    await expect(w.getByRole('alert')).toHaveText(new RegExp(`${NNBSP}; l\u2019affichage reste à T = 8\\.$`));
    expect(problems).toEqual([]);
  });

  test('Llama 3 8B and Mixtral: rotary positions, grouped heads, experts; the diagram fits at 360 px', async ({ page: p }) => {
    await p.setViewportSize({ width: 360, height: 740 });
    const problems = await open(p, 'fr', '<tb-anatomy id="llama" model="llama3-8b"></tb-anatomy><tb-anatomy id="mixtral" model="mixtral-8x7b"></tb-anatomy>');
    const n = (x) => intl(p, 'fr-FR', x);
    const llama = p.locator('#llama');
    const diagram = llama.getByRole('listbox', { name: 'Parties de Llama 3 8B' });
    await expect(diagram).toContainText(`Positions rotatives${NNBSP}: aucun paramètre`);
    await expect(diagram).toContainText('31 autres blocs comme celui-ci');
    await expect(diagram.getByRole('option', { name: partName('Activation SwiGLU') })).toHaveCount(1);
    const details = llama.getByRole('group', { name: 'Partie sélectionnée' });
    await expect(details).toContainText(`W_K ${await n(4096)} × ${await n(1024)} (d × d_kv)`);
    await expect(details).toContainText(`Pourquoi W_K et W_V sont plus étroites que W_Q${NNBSP}:`);
    await expect(details).toContainText('Ses 32 têtes de requête se partagent 8 têtes clé/valeur');

    const mixtral = p.locator('#mixtral');
    await mixtral.getByRole('option', { name: partName('Feed-forward') }).click();
    const panel = mixtral.getByRole('group', { name: 'Partie sélectionnée' });
    await expect(panel).toContainText(`W_gate (chaque expert) ${await n(4096)} × ${await n(14336)} (d × f), 8 copies, dont 2 utilisées par token`);
    await expect(panel).toContainText(`Un token donné n\u2019en utilise que ${await n(352321536)} par bloc, ${await n(11274289152)} en tout.`);
    await expect(mixtral.getByRole('option', { name: partName('Routeur') })).toHaveAccessibleName(`Routeur ${await compact(p, 'fr-FR', 32768)} par bloc W_router`.replace('W_router', 'Wrouter'));
    await expect(mixtral.locator('dl.headline')).toContainText(`Utilisés par token${await n(12879925248)}`);

    for (const w of [p.locator('#llama'), mixtral]) expect(await misfits(w)).toEqual([]);
    expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
  });

  test('TinyGPT\u2019s live tensors in French, their figures in the locale', async ({ page: p }) => {
    const problems = await open(p, 'fr', '<tb-anatomy model="tiny-gpt" seq-len="12"></tb-anatomy>');
    const w = p.locator('tb-anatomy');
    const live = w.getByRole('group', { name: 'Tenseurs en direct' });
    await expect(live.getByRole('heading', { level: 3 })).toHaveText(`En direct${NNBSP}: le TinyGPT fourni lit votre texte`);
    await w.getByRole('option', { name: partName('Normalisation avant l\u2019attention') }).click();
    await expect(live.locator('h4')).toHaveText(`Pour «${NNBSP}the\u2423residual${NNBSP}» (12 positions), bloc 0`);
    await expect(live.locator('.statistic')).toContainText('avant le gain et le biais, chaque ligne a une moyenne de 0 et un écart type de 1');
    await expect(live.locator('table.live-table caption')).toHaveText('ln_1 du bloc 0, ligne par ligne');
    await expect(live.locator('table.live-table thead th')).toHaveText(['Position', 'moyenne lue', 'écart type lu', 'moyenne après', 'écart type après']);
    const after = await live.locator('table.live-table tbody tr').first().locator('td').evaluateAll((tds) => tds.slice(2).map((td) => td.textContent));
    expect(after).toEqual([await intl(p, 'fr-FR', 0, { minimumFractionDigits: 3 }), await intl(p, 'fr-FR', 1, { minimumFractionDigits: 3 })]);
    await live.getByLabel('Texte').fill('a');
    await expect(live.locator('h4')).toHaveText(`Pour «${NNBSP}a${NNBSP}» (1 position), bloc 0`);
    await expect(live.getByLabel('Bloc', { exact: true }).locator('option')).toHaveText(['Bloc 0', 'Bloc 1']);
    await w.getByRole('option', { name: partName('Activation GELU') }).click();
    await expect(live.locator('.statistic')).toHaveText(/^Sur ce texte, GELU laisse passer \d+[\u00a0\u202f]?%/);
    // Near the stream's top: where its middle falls depends on the layout, and an add there takes the click.
    await w.getByRole('option', { name: partName('Flux résiduel') }).click({ position: { x: 19, y: 40 } });
    await expect(live.locator('table.live-table thead th')).toHaveText([
      'Position',
      'entrée du bloc 0',
      'après l\u2019ajout de l\u2019attention, bloc 0',
      'après l\u2019ajout du feed-forward, bloc 0',
      'après l\u2019ajout de l\u2019attention, bloc 1',
      'après l\u2019ajout du feed-forward, bloc 1',
    ]);
    expect(problems).toEqual([]);
  });
});

test('in Simplified Chinese: the diagram, the details, the breakdown; it fits at 360 px', async ({ page: p }) => {
  await p.setViewportSize({ width: 360, height: 740 });
  const problems = await open(p, 'zh-CN', '<tb-anatomy model="gpt2-small" seq-len="8"></tb-anatomy><tb-anatomy id="mixtral" model="mixtral-8x7b"></tb-anatomy>');
  const w = p.locator('tb-anatomy').first();
  const n = (x) => intl(p, 'zh-CN', x);
  await expect(w.getByRole('slider', { name: '序列长度 T' })).toBeVisible();
  const diagram = w.getByRole('listbox', { name: 'GPT-2 small 的各个部分' });
  await expect(diagram.getByRole('option', { name: partName('token 表') })).toHaveAccessibleName(`token 表 ${await compact(p, 'zh-CN', 38597376)} V×d`);
  await expect(diagram.getByRole('option', { name: /^注意力 / })).toHaveAccessibleName(`注意力 每块 ${await compact(p, 'zh-CN', 2362368)} WQ WK WV WO`);
  await expect(diagram.getByRole('option', { name: partName('分数') })).toHaveAccessibleName('分数（每个头） 8 × 8');
  await expect(diagram).toContainText('第 1 块（共 12 块）');
  await expect(diagram).toContainText('还有 11 个这样的块');
  const details = w.getByRole('group', { name: '选中的部分' });
  await expect(details.getByRole('heading', { level: 3 })).toHaveText('注意力');
  await expect(details).toContainText('唯一让各位置交换信息的部分。12 个头中的每一个');
  await expect(details).toContainText('注意力输出 1 × 8 × 768（B × T × d）');
  await expect(details.locator('.params')).toHaveText(`每块 ${await n(2362368)} 个参数，全部 12 个块共 ${await n(28348416)} 个，占模型的 ${await percent(p, 'zh-CN', 0.23)}。`);
  await expect(w.getByRole('heading', { name: `GPT-2 small 的 ${await n(124439808)} 个参数分布在哪里` })).toBeVisible();
  await expect(w.getByRole('list', { name: '按组划分的参数' }).getByRole('listitem').first()).toHaveText(
    `嵌入 ${await compact(p, 'zh-CN', 39383808)}，${await percent(p, 'zh-CN', 0.3165)}`,
  );
  await expect(w.locator('dl.headline')).toContainText(`参数${await n(124439808)}（${await compact(p, 'zh-CN', 124439808)}）`);
  await expect(w.locator('dl.headline')).toContainText('T = 8 时每个 token 的前向 FLOPs');
  await expect(p.locator('#mixtral').getByRole('option', { name: partName('前馈层') }).first()).toHaveAccessibleName(/^前馈层 8 个专家，每个 token 用 2 个/);
  for (const widget of [w, p.locator('#mixtral')]) expect(await misfits(widget)).toEqual([]);
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test('follows a lang changed while it runs, keeping the part selected and the text typed', async ({ page: p }) => {
  const problems = await open(p, 'en', '<tb-anatomy model="tiny-gpt" seq-len="12"></tb-anatomy>');
  const w = p.locator('tb-anatomy');
  await w.getByRole('option', { name: partName('Final norm') }).click();
  const live = w.getByRole('group', { name: 'Live tensors' });
  await live.getByLabel('Text').fill('abc');
  await expect(live.locator('h4')).toHaveText('For "abc" (3 positions)');

  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  await expect(w.getByRole('group', { name: 'Partie sélectionnée' }).getByRole('heading', { level: 3 })).toHaveText('Normalisation finale');
  const frLive = w.getByRole('group', { name: 'Tenseurs en direct' });
  await expect(frLive.locator('h4')).toHaveText(`Pour «${NNBSP}abc${NNBSP}» (3 positions)`);
  await expect(frLive.getByLabel('Texte')).toHaveValue('abc');
  await expect(frLive.locator('table.live-table caption')).toHaveText('ln_f, ligne par ligne');

  await p.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(w.getByRole('group', { name: '选中的部分' }).getByRole('heading', { level: 3 })).toHaveText('最终归一化');
  await expect(w.getByRole('group', { name: '实时张量' }).locator('h4')).toHaveText('文本“abc”（3 个位置）');

  await p.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await expect(w.getByRole('group', { name: 'Selected part' }).getByRole('heading', { level: 3 })).toHaveText('Final norm');
  await expect(live.locator('h4')).toHaveText('For "abc" (3 positions)');
  expect(problems).toEqual([]);
});
