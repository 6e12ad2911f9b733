// The lesson inliner (scripts/build-dist.mjs: inlineLessonPage), which makes the offline lesson one
// self-contained file: what it inlines, what it drops, what it refuses, and the page's policy kept.
import { test, expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import { inlineLessonPage } from '../../scripts/build-dist.mjs';

test.describe('the lesson inliner', () => {
  const readLocal = (href) => ({ 'styles.css': 'body { color: black; }', 'bad.css': 'body { background: url(bg.png); }' })[href];
  const bundle = async (modules) => `/* ${modules.map((m) => m.path ?? 'inline').join(' ')} */`;
  const page = (head, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  test('inlines the stylesheet, replaces module scripts with one classic script, drops online-only parts', async () => {
    const html = await inlineLessonPage(
      page(
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="styles.css"><script type="module" src="src/main.js"></script>',
        '<a href="#top">top</a> <a href="https://example.org/paper">paper</a> <p data-online-only><a href="transformer-block-lesson.html" download>Download this lesson</a></p><!-- <img src="x.png"> -->',
      ),
      { readLocal, bundle },
    );
    expect(html).toContain('<style>\nbody { color: black; }\n</style>');
    expect(html).toContain('<script>\n/* src/main.js */\n</script>\n</body>');
    expect(html).not.toMatch(/type="module"|styles\.css|Download this lesson|x\.png/);
    expect(html).toContain('<a href="https://example.org/paper">');
  });

  const refusals = {
    'an image file': page('<script type="module" src="a.js"></script>', '<img src="figure.png">'),
    'a classic script file': page('<script src="other.js"></script><script type="module" src="a.js"></script>'),
    'a stylesheet with url()': page('<link rel="stylesheet" href="bad.css"><script type="module" src="a.js"></script>'),
    'a link to another page': page('<script type="module" src="a.js"></script>', '<a href="gallery/">gallery</a>'),
    'an srcset': page('<script type="module" src="a.js"></script>', '<img src="data:," srcset="big.png 2x">'),
    'an inline style url()': page('<script type="module" src="a.js"></script>', '<div style="background:url(x.png)"></div>'),
  };
  for (const [what, html] of Object.entries(refusals)) {
    test(`fails loudly on ${what}`, async () => {
      await expect(inlineLessonPage(html, { readLocal, bundle })).rejects.toThrow(/cannot become one self-contained file/);
    });
  }

  test("keeps the page's Content-Security-Policy, adding the hashes of the inline script and style", async () => {
    const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
    const html = await inlineLessonPage(
      page(`<meta http-equiv="Content-Security-Policy" content="${policy}"><link rel="stylesheet" href="styles.css"><script type="module" src="a.js"></script>`),
      { readLocal, bundle },
    );
    const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = html.match(/<script>([\s\S]*?)<\/script>/)[1];
    const style = html.match(/<style>([\s\S]*?)<\/style>/)[1];
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${hash(script)}; style-src 'self' ${hash(style)}">`,
    );
  });

  test('refuses a bundle that would end its inline <script> early', async () => {
    await expect(
      inlineLessonPage(page('<script type="module" src="a.js"></script>'), { readLocal, bundle: async () => 'let s = "</script>";' }),
    ).rejects.toThrow(/<\/script/);
  });
});
