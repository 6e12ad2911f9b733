// More widgets in the reader's language: <tb-memory>, <tb-cost-chart>, <tb-moe> and <tb-param-table>
// in French and in Simplified Chinese, their texts from the catalogs and their numbers in the locale
// (the expected numbers written by Intl in the page itself: Chromium's ICU decides the spaces).
// The library's own messages stay English.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage } from './helpers.js';

const WIDGETS = 'tb-memory, tb-cost-chart, tb-moe, tb-param-table';

const open = (p, lang, body) => openInLanguage(p, { path: '/languages-more/test.html', lang, body, selector: WIDGETS });
const intl = intlInPage;
const percent = (p, locale, x, digits = 0) => intl(p, locale, x, { style: 'percent', maximumFractionDigits: digits });

/** The data cells of the row whose header is `name`. */
const cells = (scope, p, name) => scope.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) }).getByRole('cell');

const NNBSP = '\u202f';

test.describe('<tb-memory>', () => {
  const body = '<tb-memory model="llama3-8b" batch="1" seq-len="8"></tb-memory>';

  test('in French: headings, labels, the table and its byte counts in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-memory');
    await expect(w.locator('h3')).toHaveText('Mémoire de Llama 3 8B');
    await expect(w.getByRole('table', { name: `Mémoire de Llama 3 8B${NNBSP}: poids et cache clé/valeur` })).toBeVisible();
    await expect(w.getByRole('columnheader')).toHaveText(['Format des nombres', 'Poids', 'Cache KV par token', 'Cache KV pour B = 1, T = 8']);
    await expect(cells(w, p, 'bf16/fp16 (16 bits)').first()).toHaveText(`15 GiB${await intl(p, 'fr-FR', 16060522496)} octets`);
    await expect(cells(w, p, 'fp32 (32 bits)').first()).toHaveText(`${await intl(p, 'fr-FR', 29.9)} GiB${await intl(p, 'fr-FR', 32121044992)} octets`);
    await expect(w.locator('.kv-note')).toContainText('pour les 8 têtes clé/valeur (n_kv_heads), et non pour les 32 têtes de requête');
    await expect(w.getByRole('button', { name: `Utiliser tout le contexte (${await intl(p, 'fr-FR', 8192)})` })).toBeVisible();
    // The reader's T: the header follows, in French numbers; a T that is not whole is named in French.
    const seq = w.getByLabel('Contexte T (tokens)');
    await seq.fill('8192');
    await expect(w.getByRole('columnheader', { name: `Cache KV pour B = 1, T = ${await intl(p, 'fr-FR', 8192)}` })).toBeVisible();
    await w.getByLabel('Lot B (séquences)').fill('1.5');
    await expect(w.getByRole('alert')).toHaveText(`lot «${NNBSP}1.5${NNBSP}» n\u2019est pas un nombre entier`);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-memory');
    await expect(w.locator('h3')).toHaveText('Llama 3 8B 的内存');
    await expect(w.getByLabel('上下文 T（token 数）')).toHaveValue('8');
    await expect(w.getByRole('columnheader', { name: 'B = 1、T = 8 时的 KV 缓存' })).toBeVisible();
    await expect(cells(w, p, 'bf16/fp16（16 位）').first()).toHaveText(`15 GiB${await intl(p, 'zh-CN', 16060522496)} 字节`);
    await expect(w.locator('.kv-note')).toContainText('分组查询注意力');
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-cost-chart>', () => {
  const body = '<tb-cost-chart model="gpt2-small" seq-len="8"></tb-cost-chart>';

  test('in French: the control, the legend, the chart and the readout', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-cost-chart');
    await expect(w.locator('h3')).toHaveText('Ce que coûte un token dans GPT-2 small');
    await expect(w.getByRole('list', { name: 'Légende' }).getByRole('listitem')).toHaveText(['total', 'terme des paramètres 2N (constant)', 'terme de l\u2019attention 4·L·T·d']);
    const field = w.getByRole('spinbutton', { name: 'Longueur de séquence T (tokens)' });
    await field.fill('1024');
    await field.press('Enter');
    await expect(w.getByRole('slider', { name: 'Longueur de séquence T' })).toHaveValue('1024');
    await expect(w.locator('.readout')).toHaveText(
      `À T = ${await intl(p, 'fr-FR', 1024)}${NNBSP}: 285 MFLOP par token pour la passe avant (paramètres 247 M, attention ${await intl(p, 'fr-FR', 37.7)} M)${NNBSP}; ` +
        `l\u2019attention représente ${await percent(p, 'fr-FR', 0.18)} des calculs d\u2019un bloc.`,
    );
    await expect(w.locator('.crossover-note')).toHaveText(
      `L\u2019attention dépasserait les couches linéaires à T = ${await intl(p, 'fr-FR', 4608)}, au-delà des ${await intl(p, 'fr-FR', 1024)} tokens qu\u2019accepte GPT-2 small.`,
    );
    const svg = w.locator('svg.cost-chart');
    await expect(svg.locator('.x-axis').first().locator('text').last()).toHaveText('T (tokens, échelle log)');
    await expect(svg.locator('.x-axis').first().locator('text').nth(10)).toHaveText(await intl(p, 'fr-FR', 1024));
    await expect(svg.locator('.y-axis').nth(1).locator('text').nth(1)).toHaveText(await percent(p, 'fr-FR', 0.25));
    await expect(svg.locator('.crossover text')).toHaveText(`croisement à T = ${await intl(p, 'fr-FR', 4608)}`);
    await expect(svg).toHaveAttribute('aria-label', /^Graphique pour GPT-2 small\. FLOP de la passe avant par token/);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-cost-chart');
    await expect(w.locator('h3')).toHaveText('GPT-2 small 中一个 token 的计算成本');
    const field = w.getByRole('spinbutton', { name: '序列长度 T（token 数）' });
    await field.fill('1024');
    await field.press('Enter');
    await expect(w.locator('.readout')).toHaveText(
      `T = ${await intl(p, 'zh-CN', 1024)} 时：每个 token 前向 285 MFLOPs（参数 247 M，注意力 37.7 M）；注意力占一个块运算量的 ${await percent(p, 'zh-CN', 0.18)}。`,
    );
    await expect(w.locator('.crossover-note')).toContainText(`已超出 GPT-2 small 可接受的 ${await intl(p, 'zh-CN', 1024)} 个 token`);
    await expect(w.locator('svg .x-axis').first().locator('text').last()).toHaveText('T（token 数，对数刻度）');
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-moe>', () => {
  const body = '<tb-moe></tb-moe>';

  test('in French: sliders, the routing in words, the batch and its loss', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-moe');
    const n = (x, o) => intl(p, 'fr-FR', x, o);
    await expect(w.locator('h3')).toHaveText(`Mélange d\u2019experts${NNBSP}: le routage`);
    await expect(w.getByRole('slider', { name: 'Score de l\u2019expert 0' })).toHaveValue('2');
    await expect(w.locator('output').first()).toHaveText(await n(2, { minimumFractionDigits: 1 }));
    await expect(w.locator('.result').first()).toHaveText(
      `Retenus${NNBSP}: les experts 0 et 1, avec les coefficients ${await n(0.731)} et ${await n(0.269)}. ` +
        `Écartés${NNBSP}: les experts 2 et 3 (jamais exécutés pour ce token).`,
    );
    await expect(w.getByRole('columnheader')).toHaveText(['Expert', 'Score', 'Coefficient']);
    await expect(w.locator('tbody tr').first()).toHaveText(`Expert 0${await n(2, { minimumFractionDigits: 1 })}retenu, coefficient ${await n(0.731)}`);
    await w.getByLabel('Experts retenus par token, k').selectOption('1');
    await expect(w.locator('.result').first()).toHaveText(
      `Retenu${NNBSP}: l\u2019expert 0, avec le coefficient 1. Écartés${NNBSP}: les experts 1, 2 et 3 (jamais exécutés pour ce token).`,
    );
    await w.getByLabel('Experts retenus par token, k').selectOption('2');
    await expect(w.locator('h4').nth(1)).toHaveText('Un lot de 64 tokens à travers une couche de 8 experts (d = 16)');
    await expect(w.getByRole('img', { name: /^Tokens par expert, 64 tokens, k = 2, graine 0/ })).toBeVisible();
    await expect(w.locator('.loss')).toHaveText(await n(1.003));
    await expect(w.locator('.result').nth(1)).toContainText(`Perte d\u2019équilibrage de la charge${NNBSP}: ${await n(1.003)} (1 quand`);
    await w.getByRole('spinbutton', { name: 'Graine' }).fill('');
    await expect(w.getByRole('alert')).toHaveText(`Graine${NNBSP}: tapez un nombre entier`);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-moe');
    await expect(w.locator('h3')).toHaveText('混合专家：路由');
    await expect(w.getByRole('slider', { name: '专家 1 的分数' })).toHaveValue('1');
    await expect(w.locator('.result').first()).toHaveText(
      `保留：专家 0和1，门控权重 ${await intl(p, 'zh-CN', 0.731)}和${await intl(p, 'zh-CN', 0.269)}。跳过：专家 2和3（处理这个 token 时不运行）。`,
    );
    await expect(w.locator('.loss')).toHaveText(await intl(p, 'zh-CN', 1.003));
    await expect(w.getByRole('img', { name: /^每个专家的 token 数，共 64 个 token，k = 2，种子 0：专家 0：14、/ })).toBeVisible();
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-param-table>', () => {
  const body = '<tb-param-table model="gpt2-small"></tb-param-table>';

  test('in French: parts, formulas, counts and shares in French, the tensors', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-param-table');
    const n = (x) => intl(p, 'fr-FR', x);
    const table = w.getByRole('table', { name: 'Paramètres de GPT-2 small, partie par partie' });
    await expect(table.getByRole('columnheader')).toHaveText(['Partie', 'Formule', 'Par bloc', 'Dans le modèle', 'Part']);
    await expect(cells(table, p, 'Attention')).toHaveText(['4d² + 4d', await n(2362368), await n(28348416), await percent(p, 'fr-FR', 0.23)]);
    await expect(cells(table, p, 'Tête de sortie')).toHaveText(['0 (liée à la table des tokens)', '—', 'liée (0)', await percent(p, 'fr-FR', 0, 1)]);
    await expect(cells(table, p, 'Normalisation avant l\u2019attention').last()).toHaveText(`moins de ${await percent(p, 'fr-FR', 0.001, 1)}`);
    await expect(cells(table, p, 'Les 12 blocs')).toHaveText(['L × un bloc', '', await n(85054464), '']);
    await expect(cells(table, p, 'Total').nth(2)).toHaveText(await n(124439808));
    await expect(cells(table, p, 'Estimation de Kaplan').last()).toHaveText(`${await percent(p, 'fr-FR', 0.001, 1)} de moins que le décompte sans les plongements`);
    await expect(table.locator('tr.total td.in-model')).toHaveAttribute('data-label', 'Dans le modèle');
    await expect(w.locator('.left-out')).toHaveText(
      `En ajoutant la table des tokens, 12·L·d² + V·d = ${await n(123532032)}${NNBSP}: 12·L·d² + V·d laisse de côté ${await percent(p, 'fr-FR', 0.007, 1)} du total.`,
    );
    await expect(w.locator('dl')).toContainText(`taille du vocabulaire, ${await n(50257)}`);
    await w.getByText('Tous les tenseurs de GPT-2 small').click();
    const tensors = w.getByRole('table', { name: 'Tenseurs de GPT-2 small' });
    await expect(cells(tensors, p, 'W_1')).toHaveText([`d × 4d = 768 × ${await n(3072)}`, '4d²', await n(2359296), await n(28311552)]);
    await expect(cells(tensors, p, 'table des tokens').first()).toHaveText(`V × d = ${await n(50257)} × 768`);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-param-table');
    const table = w.getByRole('table', { name: 'GPT-2 small 的参数，逐部分列出' });
    await expect(table.getByRole('columnheader')).toHaveText(['部分', '公式', '每块', '整个模型', '占比']);
    await expect(cells(table, p, '注意力')).toHaveText(['4d² + 4d', await intl(p, 'zh-CN', 2362368), await intl(p, 'zh-CN', 28348416), await percent(p, 'zh-CN', 0.23)]);
    await expect(cells(table, p, '总计').nth(2)).toHaveText(await intl(p, 'zh-CN', 124439808));
    await expect(cells(table, p, '全部 12 个块').nth(0)).toHaveText('L × 一个块');
    await expect(w.locator('.kaplan-summary')).toContainText('Kaplan 的简便公式 12·L·d²');
    expect(problems).toEqual([]);
  });
});

test('the four follow a lang changed while they run', async ({ page: p }) => {
  const problems = await open(p, 'en', '<tb-memory model="gpt2-small"></tb-memory><tb-cost-chart model="gpt2-small"></tb-cost-chart><tb-moe></tb-moe><tb-param-table model="gpt2-small"></tb-param-table>');
  await expect(p.locator('tb-memory h3')).toHaveText('Memory for GPT-2 small');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  await expect(p.locator('tb-memory h3')).toHaveText('Mémoire de GPT-2 small');
  await expect(p.locator('tb-cost-chart h3')).toHaveText('Ce que coûte un token dans GPT-2 small');
  await expect(p.locator('tb-moe h3')).toHaveText(`Mélange d\u2019experts${NNBSP}: le routage`);
  await expect(p.locator('tb-param-table').getByRole('table').first()).toHaveAccessibleName('Paramètres de GPT-2 small, partie par partie');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(p.locator('tb-memory h3')).toHaveText('GPT-2 small 的内存');
  await expect(p.locator('tb-moe h3')).toHaveText('混合专家：路由');
  expect(problems).toEqual([]);
});
