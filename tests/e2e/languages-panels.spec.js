// The panels every model-running widget shares, in the reader's language: the analytic widgets'
// model switcher and "Your model…" panel, a config-src that cannot be had, the weights-src loading
// view and its Cancel, and "Your checkpoint…" (its help, its refusals, its note when the browser
// will not keep the checkpoint), in French and in Simplified Chinese; and a `lang` changed while the
// page runs. The expected numbers are written by Intl in the page itself. The library's own messages
// stay English.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { intlInPage, openInLanguage, pageOverflow } from './helpers.js';

const NNBSP = '\u202f';
const FIXTURE = new URL('fixtures/checkpoint/', import.meta.url);
const file = (name) => ({ name, bytes: [...readFileSync(new URL(name, FIXTURE))] });
const CHECKPOINT = ['model.safetensors', 'config.json', 'vocab.json'].map(file);
const QWEN = readFileSync(new URL('../../crate/tests/fixtures/hf/qwen2-0.5b.json', import.meta.url), 'utf8');

const open = (p, lang, body, selector) => openInLanguage(p, { path: '/languages-panels/test.html', lang, body, selector });

/** Drops `files` ({ name, bytes }, or a number of MiB of zeros called model.safetensors) on the panel `selector` of `widget`. */
async function drop(widget, selector, files) {
  await widget.evaluate(
    (host, [selector, files]) => {
      const data = new DataTransfer();
      if (typeof files === 'number') data.items.add(new File(Array.from({ length: files }, () => new Uint8Array(1 << 20)), 'model.safetensors'));
      else for (const f of files) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
      host.shadowRoot.querySelector(selector).dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [selector, files],
  );
}

test('in French: the model switcher and "Your model…", a size in French numbers, and the reader\u2019s model offered', async ({ page: p }) => {
  const problems = await open(p, 'fr', '<tb-memory model="llama3-8b" batch="1" seq-len="8"></tb-memory>', 'tb-memory');
  const w = p.locator('tb-memory');
  const select = w.getByLabel('Modèle', { exact: true });
  await expect(select.locator('option').last()).toHaveText('Votre modèle…');
  await select.selectOption({ label: 'Votre modèle…' });
  const panel = w.getByRole('group', { name: 'Votre modèle' });
  await expect(panel.locator('p').first()).toHaveText(
    'Collez un config.json de Hugging Face, déposez le fichier ici ou choisissez-le. Il est lu dans cette page et gardé dans ce navigateur uniquement.',
  );
  await expect(panel.locator('button:visible')).toHaveText(['Afficher ce modèle', 'Annuler']); // nothing to forget yet
  await panel.getByRole('button', { name: 'Afficher ce modèle' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Collez d\u2019abord un config.json, ou déposez ou choisissez le fichier. Le modèle affiché ne change pas.');
  // 70,000 characters: 68.4 KiB, written the French way.
  await panel.getByLabel('texte du config.json').fill('x'.repeat(70_000));
  await panel.getByRole('button', { name: 'Afficher ce modèle' }).click();
  const size = await intlInPage(p, 'fr-FR', 68.4, { maximumSignificantDigits: 3 });
  await expect(panel.getByRole('alert')).toHaveText(
    `Ce texte fait ${size} KiB${NNBSP}; un config.json fait quelques Ko (au plus 64 KiB ici). Le modèle affiché ne change pas.`,
  );
  await p.setViewportSize({ width: 360, height: 740 }); // a phone: the French panel fits
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  await panel.getByLabel('texte du config.json').fill(QWEN);
  await panel.getByRole('button', { name: 'Afficher ce modèle' }).click();
  await expect(panel).toBeHidden();
  await expect(select.locator('option', { hasText: 'Votre modèle' }).first()).toHaveText(new RegExp(`^Votre modèle${NNBSP}: `));
  expect(problems).toEqual([]);
});

test('in Simplified Chinese: a config-src that names nothing, and a weights file dropped by mistake', async ({ page: p }) => {
  const problems = await open(p, 'zh-CN', '<tb-param-table config-src="#nothing"></tb-param-table>', 'tb-param-table');
  const w = p.locator('tb-param-table');
  await expect(w.getByRole('alert').first()).toHaveText(
    'config-src“#nothing”没有指向页面中的任何 <script>：请给出存放配置的 <script type="application/json"> 的 id，或一个 .json 文件的 URL',
  );
  await w.getByLabel('模型', { exact: true }).selectOption({ label: '你的模型…' });
  const panel = w.getByRole('group', { name: '你的模型' });
  await expect(panel.locator('button:visible')).toHaveText(['显示这个模型', '取消']);
  await drop(w, '.your-model', 200);
  await expect(panel.getByRole('alert')).toHaveText('model.safetensors 有 200 MiB：config.json 通常只有几 KB。请拖放模型的 config.json（统计参数不需要它的权重）。当前显示的模型保持不变。');
  await panel.getByRole('button', { name: '取消' }).click();
  await expect(panel).toBeHidden();
  expect(problems).toEqual([]);
});

test('in French: a weights-src download cancelled, "Your checkpoint…", and why this browser will not keep it', async ({ page: p }) => {
  // This browser refuses IndexedDB: the checkpoint runs, for this visit only, and the panel says so.
  await p.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('refused for the test', 'SecurityError');
    };
  });
  // The folder's config.json comes (read first: a model tblock train wrote, not a Hugging Face
  // checkpoint); its weights never answer: only Cancel ends the wait.
  await p.route('**/course/slow/config.json', (route) => route.fulfill({ body: readFileSync(new URL('config.json', FIXTURE)), contentType: 'application/json' }));
  await p.route('**/course/slow/model.safetensors', () => {});
  const problems = await open(p, 'fr', '<tb-ablation model="shipped" weights-src="/course/slow/"></tb-ablation>', 'tb-ablation');
  const w = p.locator('tb-ablation');
  await expect(w.getByRole('status')).toHaveText('Chargement du modèle depuis /course/slow/…');
  await expect(w.getByRole('progressbar', { name: 'Chargement du modèle' })).toBeVisible();
  await w.getByRole('button', { name: 'Annuler le téléchargement' }).click();
  await expect(w.getByRole('alert').first()).toHaveText(
    `weights-src «${NNBSP}/course/slow/${NNBSP}»${NNBSP}: le téléchargement a été annulé${NNBSP}; le widget revient au modèle qu\u2019il utilise sans weights-src`,
  );
  await expect(w.locator('.bars .bar')).toHaveCount(2); // the shipped model's two blocks

  const select = w.getByLabel('Modèle', { exact: true });
  await expect(select.locator('option[value="checkpoint"]')).toHaveText('votre checkpoint');
  await select.selectOption({ label: 'Votre checkpoint…' });
  const panel = w.getByRole('group', { name: 'Votre checkpoint' });
  await expect(panel.locator('p').first()).toHaveText(
    'Déposez model.safetensors avec son config.json et son vocab.json (ce qu\u2019écrit tblock train), ou leur dossier, ou choisissez-les. ' +
      `Jusqu\u2019à 16 MiB de poids${NNBSP}; lus dans cette page uniquement. ` +
      `Le dossier d\u2019un checkpoint Hugging Face (GPT-2, Llama, Mistral, Qwen2${NNBSP}: config.json, tokenizer.json et ses safetensors) tourne dans les widgets qui regardent dans un modèle, jusqu\u2019à 2 GiB.`,
  );
  await expect(panel.getByLabel('Fichiers du checkpoint')).toBeAttached();
  await drop(w, '.your-checkpoint', 200);
  await expect(panel.getByRole('alert')).toHaveText(`model.safetensors fait 200 MiB${NNBSP}: la page fait tourner des modèles d\u2019au plus 16 MiB. Le modèle affiché ne change pas.`);
  await drop(w, '.your-checkpoint', CHECKPOINT.slice(1));
  await expect(panel.getByRole('alert')).toHaveText(
    `Aucun fichier .safetensors parmi eux${NNBSP}: déposez model.safetensors (avec son config.json et son vocab.json). Le modèle affiché ne change pas.`,
  );
  await drop(w, '.your-checkpoint', CHECKPOINT);
  await expect(select).toHaveValue('checkpoint');
  await expect(select.locator('option[value="checkpoint"]')).toHaveText(`votre checkpoint${NNBSP}: model.safetensors`);
  await expect(panel.getByRole('status')).toHaveText(
    `Chargé, mais il ne survivra pas à un rechargement de la page${NNBSP}: ce navigateur ne laisse pas la page garder de fichiers (navigation privée, page ouverte depuis un fichier, ou stockage désactivé).`,
  );
  await expect(w.locator('.blocks li')).toHaveCount(1);
  await p.setViewportSize({ width: 360, height: 740 }); // a phone: the French panel and its note fit
  expect(await pageOverflow(p)).toBeLessThanOrEqual(0);
  // The one failure: the download the reader cancelled.
  expect(problems.filter((x) => !x.includes('/course/slow/model.safetensors'))).toEqual([]);
});

test('in Simplified Chinese, then French when the page\u2019s lang changes: the checkpoint panel and its option', async ({ page: p }) => {
  const problems = await open(p, 'zh-CN', '<tb-stream model="shipped"></tb-stream>', 'tb-stream');
  const w = p.locator('tb-stream');
  let select = w.getByLabel('模型', { exact: true });
  await expect(select.locator('option[value="checkpoint"]')).toHaveText('你的检查点');
  await select.selectOption({ label: '你的检查点…' });
  const panel = w.getByRole('group', { name: '你的检查点' });
  await expect(panel.locator('p').first()).toHaveText(
    '拖放 model.safetensors 及其 config.json 和 vocab.json（即 tblock train 写出的文件），或它们所在的文件夹，或选择这些文件。权重最多 16 MiB；只在本页中读取。' +
      'Hugging Face 检查点的文件夹（GPT-2、Llama、Mistral、Qwen2：config.json、tokenizer.json 及其 safetensors）在查看模型内部的组件中运行，最多 2 GiB。',
  );
  await expect(panel.locator('button:visible')).toHaveText(['取消']); // nothing to forget yet
  await drop(w, '.your-checkpoint', CHECKPOINT);
  await expect(panel).toBeHidden(); // kept in this browser: the panel closes
  await expect(select).toHaveValue('checkpoint');
  await expect(select.locator('option[value="checkpoint"]')).toHaveText('你的检查点：model.safetensors');
  await expect(w.locator('.cards li')).toHaveCount(1);
  // The page turns French: the widget speaks it, and still shows the reader's checkpoint.
  await p.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  select = w.getByLabel('Modèle', { exact: true });
  await expect(select).toHaveValue('checkpoint');
  await expect(select.locator('option[value="checkpoint"]')).toHaveText(`votre checkpoint${NNBSP}: model.safetensors`);
  await expect(select.locator('option').last()).toHaveText('Votre checkpoint…');
  await select.selectOption({ label: 'Votre checkpoint…' });
  await expect(w.getByRole('group', { name: 'Votre checkpoint' }).locator('button:visible')).toHaveText(['Annuler', 'Oublier mon checkpoint']);
  expect(problems).toEqual([]);
});
