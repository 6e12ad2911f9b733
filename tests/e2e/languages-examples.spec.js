// The worked examples in the reader's language: <tb-example> in French and in Simplified Chinese,
// their texts from the catalogs and their numbers in the locale (the expected numbers written by Intl
// in the page itself: Chromium's ICU decides the spaces and the minus sign). Formulas (C_infer, 6·N·D,
// LN(h)) and what the reader types (numbers as code writes them, "1, 2, 3, 4") are the same in every
// language; the library's own messages stay English.
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage, pageOverflow } from './helpers.js';

const NAMES = ['residual', 'layernorm', 'gelu', 'feed-forward', 'tiny-gpt', 'tied-output', 'masks', 'param-count', 'moe', 'balance-loss', 'flops'];
const BODY = NAMES.map((name) => `<tb-example name="${name}"></tb-example>`).join('');

const open = (p, lang, body = BODY) => openInLanguage(p, { path: '/languages-examples/test.html', lang, body, selector: 'tb-example' });
const example = (p, name) => p.locator(`tb-example[name="${name}"]`);

const NNBSP = '\u202f';

/** Numbers and vectors as the page's Intl writes them in `locale` (fr: "\u202f; " between a vector's entries). */
function numbers(p, locale) {
  const n = (x, o) => intlInPage(p, locale, x, o);
  const sep = locale === 'fr-FR' ? '\u202f; ' : ', ';
  const vector = async (xs) => `(${(await Promise.all(xs.map((x) => n(x, { maximumFractionDigits: 3 })))).join(sep)})`;
  return { n, vector };
}

test('in French: titles, labels, steps and results, every number in French', async ({ page: p }) => {
  const problems = await open(p, 'fr');
  const { n, vector } = numbers(p, 'fr-FR');

  const residual = example(p, 'residual');
  await expect(residual.locator('h3')).toHaveText('Le flux résiduel additionne, il n\u2019écrase jamais');
  await expect(residual.getByRole('group', { name: 'Le flux résiduel additionne, il n\u2019écrase jamais' })).toBeVisible();
  await expect(residual.locator('legend')).toHaveText('Entrées');
  await expect(residual.getByLabel('Ce qu\u2019écrit l\u2019attention')).toHaveValue('0.1, -0.3');
  await expect(residual.locator('.steps li')).toHaveText([
    `x ${await vector([1, 2])}`,
    `+ attention ${await vector([0.1, -0.3])} = ${await vector([1.1, 1.7])}`,
    `+ feed-forward ${await vector([-0.2, 0.4])} = ${await vector([0.9, 2.1])}`,
  ]);
  await expect(residual.locator('.result')).toContainText(`modifie son entrée d\u2019au plus 0${NNBSP}: rien n\u2019étant ajouté`);

  const layernorm = example(p, 'layernorm');
  await expect(layernorm.locator('h3')).toHaveText('LayerNorm, étape par étape');
  await expect(layernorm.locator('.steps li')).toHaveText([
    `moyenne μ = ${await n(2.5)}`,
    `variance σ² = ${await n(1.25)}`,
    `écart type √(σ² + ε) = ${await n(1.118)}`,
    `centré x − μ = ${await vector([-1.5, -0.5, 0.5, 1.5])}`,
    `sortie (x − μ) / écart type = ${await vector([-1.342, -0.447, 0.447, 1.342])}`,
  ]);
  await expect(layernorm.locator('.result')).toHaveText(
    `Le même vecteur multiplié par 100 se normalise en ${await vector([-1.342, -0.447, 0.447, 1.342])}${NNBSP}: l\u2019échelle de l\u2019entrée a disparu.`,
  );

  const gelu = example(p, 'gelu');
  await expect(gelu.getByRole('table', { name: 'GELU de chaque nombre' })).toBeVisible();
  await expect(gelu.locator('tbody td')).toHaveText([await n(0.841), '10', await n(-0.004), '0']);

  const ff = example(p, 'feed-forward');
  await expect(ff.locator('.steps li').first()).toHaveText('largeur cachée 4d = 32');
  await ff.getByLabel('Largeur du modèle d').fill('256');
  await expect(ff.locator('.steps li').nth(1)).toHaveText(`W_1 256 × ${await n(1024)}`);
  await expect(ff.locator('.result')).toHaveText(`Paramètres, comptés sur la couche construite par la bibliothèque${NNBSP}: ${await n(525568)}.`);

  const tiny = example(p, 'tiny-gpt');
  await expect(tiny.locator('.steps li').last()).toHaveText(`token suivant le mieux noté à chaque position${NNBSP}: 3, 1, 4, 1, 5`);
  await expect(tiny.locator('.result')).toHaveText(`Le modèle compte ${await n(27328)} paramètres.`);

  const tied = example(p, 'tied-output');
  await expect(tied.locator('.steps li').last()).toHaveText(`token 2${NNBSP}: ${await vector([-1, 1])} · ${await vector([1, -1])} = ${await n(-2)}`);

  await expect(example(p, 'masks').locator('.caption')).toHaveText([`Encodeur${NNBSP}: 9 paires permises sur 9`, `Décodeur${NNBSP}: 6 paires permises sur 9`]);

  const count = example(p, 'param-count');
  await expect(count.locator('.steps li').nth(5)).toHaveText(`le décompte du modèle analytique pour la même configuration ${await n(27328)} (ils concordent)`);
  await expect(count.locator('.result .value')).toHaveText(await n(124439808));

  const moe = example(p, 'moe');
  await expect(moe.locator('legend')).toHaveText(['Le routage d\u2019un token', 'La taille d\u2019une couche']);
  await expect(moe.locator('.steps li')).toHaveText([
    `retenus (top 2)${NNBSP}: experts 0 et 1`,
    `coefficients (softmax sur les scores retenus) ${await n(0.731)} et ${await n(0.269)}`,
    `écartés (jamais exécutés)${NNBSP}: experts 2 et 3`,
    `un expert (un réseau feed-forward) ${await n(2128)}`,
    'routeur 128',
    `tous gardés en mémoire ${await n(17152)}`,
    `utilisés par token ${await n(4384)}`,
  ]);
  const k = moe.getByLabel('Experts retenus, k').first();
  await k.fill('4');
  await expect(moe.locator('.steps li').nth(2)).toHaveText(`écartés (jamais exécutés)${NNBSP}: aucun`);
  await k.fill('1');
  await expect(moe.locator('.steps li').first()).toHaveText(`retenu (top 1)${NNBSP}: expert 0`);

  const balance = example(p, 'balance-loss');
  await expect(balance.locator('legend')).toHaveText(['Une répartition égale', 'Tout vers l\u2019expert 0']);
  await expect(balance.locator('.result')).toHaveText([`Perte${NNBSP}: ${await n(1, { minimumFractionDigits: 1 })}`, `Perte${NNBSP}: ${await n(4, { minimumFractionDigits: 1 })}`]);

  const flops = example(p, 'flops');
  await expect(flops.locator('legend')).toHaveText(['Générer un token', 'Entraînement 1', 'Entraînement 2']);
  await expect(flops.locator('.result')).toHaveText([
    `C_infer(7e9) = ${await n(1.4)} × 10¹⁰ FLOP`,
    `C_train(7e10, 1e12) = ${await n(4.2)} × 10²³ FLOP`,
    `C_train(1.75e11, 3e11) = ${await n(3.15)} × 10²³ FLOP`,
  ]);
  expect(problems).toEqual([]);
});

test('in French: the messages about what the reader typed, and about the name', async ({ page: p }) => {
  const problems = await open(p, 'fr', `${BODY}<tb-example name="softmax"></tb-example>`);
  const layernorm = example(p, 'layernorm');
  await layernorm.getByLabel('Vecteur x').fill('1, x');
  await expect(layernorm.getByRole('alert')).toHaveText(
    `le vecteur${NNBSP}: «${NNBSP}x${NNBSP}» n\u2019est pas un nombre${NNBSP}; écrivez des nombres séparés par des virgules`,
  );
  await expect(layernorm.locator('.steps')).toBeHidden();
  await layernorm.getByLabel('Vecteur x').fill('2, 4, 6, 8');
  await expect(layernorm.locator('.steps li').first()).toHaveText('moyenne μ = 5');

  const ff = example(p, 'feed-forward');
  await ff.getByLabel('Largeur du modèle d').fill('');
  await expect(ff.getByRole('alert')).toHaveText(`la largeur d${NNBSP}: tapez un nombre`);

  const tied = example(p, 'tied-output');
  await tied.getByLabel(/^Lignes de la table des tokens/).fill('1, 0; 0, y');
  await expect(tied.getByRole('alert')).toHaveText(`la table des tokens, ligne 1${NNBSP}: «${NNBSP}y${NNBSP}» n\u2019est pas un nombre${NNBSP}; écrivez des nombres séparés par des virgules`);

  const bad = example(p, 'softmax');
  await expect(bad.getByRole('alert')).toHaveText(
    `exemple inconnu «${NNBSP}softmax${NNBSP}»${NNBSP}: choisissez parmi residual, layernorm, gelu, feed-forward, tiny-gpt, tied-output, masks, param-count, moe, balance-loss, flops${NNBSP}; residual est affiché`,
  );
  await expect(bad.locator('h3')).toHaveText('Le flux résiduel additionne, il n\u2019écrase jamais');
  expect(problems).toEqual([]);
});

test('in Simplified Chinese', async ({ page: p }) => {
  const problems = await open(p, 'zh-CN');
  const { n, vector } = numbers(p, 'zh-CN');

  const layernorm = example(p, 'layernorm');
  await expect(layernorm.locator('h3')).toHaveText('LayerNorm，一步一步来');
  await expect(layernorm.getByLabel('向量 x')).toHaveValue('1, 2, 3, 4');
  await expect(layernorm.locator('.steps li').nth(2)).toHaveText(`标准差 √(σ² + ε) = ${await n(1.118)}`);
  await expect(layernorm.locator('.result')).toHaveText(`同一个向量乘以 100 后归一化为 ${await vector([-1.342, -0.447, 0.447, 1.342])}：输入的尺度消失了。`);

  const tiny = example(p, 'tiny-gpt');
  await expect(tiny.locator('.steps li')).toHaveText(['id 3、1、4、1、5', '→ 残差流 5 × 32', '→ logits 5 × 50', '每个位置上得分最高的下一个 token 依次为 3、1、4、1、5']);
  await expect(tiny.locator('.result')).toHaveText(`该模型共有 ${await n(27328)} 个参数。`);

  const count = example(p, 'param-count');
  await expect(count.locator('.steps li').last()).toHaveText(`含注意力偏置的 GPT-2 small ${await n(124439808)}`);

  const moe = example(p, 'moe');
  await expect(moe.locator('h3')).toHaveText('混合专家：路由与规模');
  await expect(moe.locator('.steps li').first()).toHaveText('保留（前 2 名）：专家 0 和 1');
  await expect(moe.locator('.steps li').nth(1)).toHaveText(`对保留的分数做 softmax 得到的门控权重 ${await n(0.731)} 和 ${await n(0.269)}`);
  await moe.getByLabel('保留的专家数 k').first().fill('4');
  await expect(moe.locator('.steps li').nth(2)).toHaveText('跳过（不运行）的专家 无');

  const flops = example(p, 'flops');
  await expect(flops.locator('legend')).toHaveText(['生成一个 token', '第 1 次训练', '第 2 次训练']);
  await expect(flops.locator('.result').first()).toHaveText('C_infer(7e9) = 1.4 × 10¹⁰ FLOPs');

  await example(p, 'feed-forward').getByLabel('模型宽度 d').fill('');
  await expect(example(p, 'feed-forward').getByRole('alert')).toHaveText('宽度 d：请输入一个数字');
  expect(problems).toEqual([]);
});

test('the examples follow a lang changed while they run', async ({ page: p }) => {
  const problems = await open(p, 'en', '<tb-example name="layernorm"></tb-example><tb-example name="param-count"></tb-example>');
  const layernorm = example(p, 'layernorm');
  await expect(layernorm.locator('h3')).toHaveText('LayerNorm, one step at a time');
  await expect(example(p, 'param-count').locator('.result .value')).toHaveText('124,439,808');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  await expect(layernorm.locator('h3')).toHaveText('LayerNorm, étape par étape');
  await expect(layernorm.locator('.steps li').first()).toHaveText(`moyenne μ = ${await intlInPage(p, 'fr-FR', 2.5)}`);
  await expect(example(p, 'param-count').locator('.result .value')).toHaveText(await intlInPage(p, 'fr-FR', 124439808));
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(layernorm.locator('h3')).toHaveText('LayerNorm，一步一步来');
  await expect(example(p, 'param-count').locator('h3')).toHaveText('清点参数');
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await expect(layernorm.locator('.steps li').first()).toHaveText('mean μ = 2.5');
  expect(problems).toEqual([]);
});

test('in French, fits a 360px-wide phone', async ({ page: p }) => {
  await p.setViewportSize({ width: 360, height: 740 });
  const problems = await open(p, 'fr');
  await expect(example(p, 'flops').locator('.result')).toHaveCount(3);
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
