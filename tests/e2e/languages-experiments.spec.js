// The experiments in the reader's language: <tb-stream>, <tb-ablation>, <tb-depth-latency> and
// <tb-norm-race> in French and in Simplified Chinese, their texts from the catalogs and their numbers
// in the locale (the expected numbers written by Intl in the page itself: Chromium's ICU decides the
// spaces). The library's own strings (GPT-2 small's quoted figures, its messages) stay English.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage } from './helpers.js';

const WIDGETS = 'tb-stream, tb-ablation, tb-depth-latency, tb-norm-race';

const open = (p, lang, body) => openInLanguage(p, { path: '/languages-experiments/test.html', lang, body, selector: WIDGETS });
const intl = intlInPage;

/** The library's stream medians for the six-block model, from the page's wasm instance. */
function stream(p) {
  return p.evaluate(async () => {
    const lib = await (await import('/src/wasm.js')).fullLibrary();
    const m = lib.CharModel.six_blocks();
    try {
      return m.stream();
    } finally {
      m.free();
    }
  });
}

const NNBSP = '\u202f';

test.describe('<tb-stream>', () => {
  const body = '<tb-stream></tb-stream>';

  test('in French: heading, legend, the cards and their medians in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-stream');
    await expect(w.locator('h3')).toHaveText('Le flux, bloc par bloc');
    await expect(w.getByLabel('Modèle')).toBeVisible();
    await expect(w.locator('.legend')).toContainText('ce qu\u2019ajoute l\u2019attention');
    const st = await stream(p);
    const cards = w.locator('.cards li');
    await expect(cards).toHaveCount(6);
    await expect(cards.first()).toContainText(`Bloc 0flux en entrée${NNBSP}: ${await intl(p, 'fr-FR', st.blocks[0].stream_norm, { maximumFractionDigits: 2 })}`);
    await expect(cards.first()).toContainText(`cos(entrée, sortie)${NNBSP}: ${await intl(p, 'fr-FR', st.blocks[0].cosine_in_out, { maximumFractionDigits: 3 })}`);
    await expect(w.locator('.where')).toHaveText(`Mesuré dans un worker en arrière-plan${NNBSP}: la page reste réactive.`);
    await expect(w.locator('.muted').filter({ hasText: 'Médianes sur' })).toContainText(`Médianes sur ${await intl(p, 'fr-FR', st.positions)} positions`);
    await expect(w.locator('.reported figcaption')).toContainText(`Pour comparaison${NNBSP}:`);
    const share = await intl(p, 'fr-FR', st.blocks[0].attention_fraction, { style: 'percent', maximumFractionDigits: 0 });
    await expect(w.locator('svg.adds')).toHaveAttribute('aria-label', new RegExp(`^Part du flux qu’ajoute chaque sous-couche, par bloc${NNBSP}: bloc 0${NNBSP}: attention ${share}, `));
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-stream');
    await expect(w.locator('h3')).toHaveText('残差流，逐块查看');
    await expect(w.getByLabel('模型')).toBeVisible();
    const st = await stream(p);
    const cards = w.locator('.cards li');
    await expect(cards).toHaveCount(6);
    await expect(cards.first()).toContainText(`第 0 块输入的残差流：${await intl(p, 'zh-CN', st.blocks[0].stream_norm, { maximumFractionDigits: 2 })}`);
    await expect(w.locator('.muted').filter({ hasText: '取留出文本' })).toContainText(`取留出文本 ${await intl(p, 'zh-CN', st.positions)} 个位置的中位数`);
    await expect(w.locator('.where')).toHaveText('在后台 worker 中测量：页面保持响应。');
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-ablation>', () => {
  const body = '<tb-ablation></tb-ablation>';

  test('in French: heading, modes, the status and its parameter count in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-ablation');
    await expect(w.locator('h3')).toHaveText('Retirer un bloc');
    await expect(w.locator('legend')).toHaveText('Chaque bloc à tour de rôle');
    await expect(w.getByLabel('retiré (le flux le traverse sans changement)')).toBeChecked();
    await expect(w.locator('.status')).toContainText(`6 blocs de largeur 16, ${await intl(p, 'fr-FR', 20384)} paramètres, entraîné`, { timeout: 30_000 });
    await expect(w.locator('.status')).toContainText('Chaque perte note');
    await expect(w.getByRole('button', { name: 'Bloc 0', exact: true })).toBeVisible();
    await expect(w.locator('.details')).toContainText(`Bloc 0${NNBSP}: retiré, la perte est de`);
    await expect(w.locator('.details')).toHaveText(/\d,\d+ nats/);
    await expect(w.locator('.reported figcaption')).toContainText(`Pour comparaison${NNBSP}:`);
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-ablation');
    await expect(w.locator('h3')).toHaveText('去掉一个块');
    await expect(w.locator('legend')).toHaveText('依次处理每个块');
    await expect(w.locator('.status')).toContainText(`6 个块，宽度 16，${await intl(p, 'zh-CN', 20384)} 个参数`, { timeout: 30_000 });
    await expect(w.getByRole('button', { name: '第 0 块', exact: true })).toBeVisible();
    await expect(w.locator('.reported figcaption')).toContainText('对照：');
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-depth-latency>', () => {
  const body = '<tb-depth-latency></tb-depth-latency>';

  test('in French: heading and the stacks\u2019 parameter counts in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-depth-latency');
    await expect(w.locator('h3')).toHaveText('La profondeur, c\u2019est de la latence');
    await expect(w.locator('h4')).toHaveText('La part de l\u2019attention dans le temps d\u2019un bloc');
    await expect(w.getByRole('button', { name: 'Chronométrer à nouveau' })).toBeVisible();
    const chart = w.getByRole('img', { name: /^Temps médian d’un token à travers la pile/ });
    await expect(chart).toBeVisible({ timeout: 20_000 });
    const label = await chart.getAttribute('aria-label');
    expect(label).toContain(`6 blocs de largeur 136 (${await intl(p, 'fr-FR', 1339056)} paramètres de bloc)${NNBSP}: `);
    await expect(w.locator('.shares li').first()).toContainText(/^T = 32étape d’attention\u202f: [\d,]+ ms sur les [\d,]+ ms du bloc/, { timeout: 20_000 });
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-depth-latency');
    await expect(w.locator('h3')).toHaveText('深度就是延迟');
    const chart = w.getByRole('img', { name: /^一个 token 穿过堆叠的中位时间/ });
    await expect(chart).toBeVisible({ timeout: 20_000 });
    expect(await chart.getAttribute('aria-label')).toContain(`6 个宽度为 136 的块（块参数 ${await intl(p, 'zh-CN', 1339056)} 个）：`);
    expect(problems).toEqual([]);
  });
});

test.describe('<tb-norm-race>', () => {
  const body = '<tb-norm-race steps="1200"></tb-norm-race>';

  test('in French: heading, settings, and the race\u2019s steps in French', async ({ page: p }) => {
    const problems = await open(p, 'fr', body);
    const w = p.locator('tb-norm-race');
    await expect(w.locator('h3')).toHaveText('Pre-LN contre post-LN');
    await expect(w.getByLabel('Graine')).toHaveValue('0');
    await expect(w.getByLabel('Pas de warmup')).toHaveValue('0');
    await expect(w.locator('.status')).toHaveText(
      `Pas encore lancée${NNBSP}: six blocs de largeur 32 de chaque côté, la même graine, les mêmes lots et le même taux d\u2019apprentissage.`,
    );
    await w.getByRole('button', { name: 'Lancer la course' }).click();
    await expect(w.locator('.status')).toContainText(`pre-LN${NNBSP}: pas`, { timeout: 20_000 });
    await expect(w.locator('.status')).toContainText(`sur ${await intl(p, 'fr-FR', 1200)}`);
    await w.getByRole('button', { name: 'Arrêter' }).click();
    await expect(w.getByRole('button', { name: 'Lancer la course' })).toBeEnabled({ timeout: 20_000 });
    expect(problems).toEqual([]);
  });

  test('in Simplified Chinese', async ({ page: p }) => {
    const problems = await open(p, 'zh-CN', body);
    const w = p.locator('tb-norm-race');
    await expect(w.locator('h3')).toHaveText('Pre-LN 对比 post-LN');
    await expect(w.getByLabel('随机种子')).toHaveValue('0');
    await w.getByRole('button', { name: '开始比赛' }).click();
    await expect(w.locator('.status')).toContainText(`/ ${await intl(p, 'zh-CN', 1200)} 步`, { timeout: 20_000 });
    await w.getByRole('button', { name: '停止' }).click();
    await expect(w.getByRole('button', { name: '开始比赛' })).toBeEnabled({ timeout: 20_000 });
    expect(problems).toEqual([]);
  });
});
