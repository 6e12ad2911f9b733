// The deployable site's page rewriting (scripts/site.mjs): the scripts become the folder's, the
// canonical and hreflang links are absolute and agree, SITE_URL is checked, a page without a
// description or still naming www/src/ is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageUrl, siteUrl, withSearchLinks, withSiteScripts, withoutComments, withoutHeadSheets } from '../../scripts/site.mjs';

const BASE = siteUrl('https://course.example/tb');

test('SITE_URL: an http(s) URL, ending in / once read; anything else refused, saying what is allowed', () => {
  assert.equal(BASE.href, 'https://course.example/tb/');
  assert.equal(siteUrl().href, 'http://localhost:8000/');
  assert.throws(() => siteUrl('course.example'), /SITE_URL "course.example" is not a URL: give where the site will be served from/);
  assert.throws(() => siteUrl('ftp://course.example/'), /must be an http: or https: URL/);
  assert.throws(() => siteUrl('https://course.example/?x=1'), /must not have a query or a fragment/);
});

test('a page is read at its folder when it is the folder index', () => {
  assert.equal(pageUrl(BASE, 'index.html'), 'https://course.example/tb/');
  assert.equal(pageUrl(BASE, 'fr/index.html'), 'https://course.example/tb/fr/');
  assert.equal(pageUrl(BASE, 'gallery/moe.html'), 'https://course.example/tb/gallery/moe.html');
});

test("the lesson's script becomes the autoloader and its own module; a gallery page's modules, one autoloader", () => {
  const lesson = '<head>\n  <script type="module" src="../src/main.js"></script>\n</head>';
  assert.equal(
    withSiteScripts(lesson, 'fr/index.html'),
    '<head>\n  <script type="module" src="../transformer-block/autoloader.js"></script>\n  <script type="module" src="../transformer-block/pages/lesson.js"></script>\n</head>',
  );
  const gallery = '<head>\n  <script type="module" src="../src/elements/attention.js"></script>\n  <script type="module" src="../src/elements/ablation.js"></script>\n</head>';
  assert.equal(withSiteScripts(gallery, 'gallery/experiments.html'), '<head>\n  <script type="module" src="../transformer-block/autoloader.js"></script>\n</head>');
  assert.throws(() => withSiteScripts('<script type="module" src="src/wasm.js"></script>', 'index.html'), /index.html still names a module of www\/src\/ \(<script type="module" src="src\/wasm.js"/);
});

test('comments are left out, a line of its own with its line', () => {
  assert.equal(withoutComments('<head>\n  <!-- a note\n  on two lines -->\n  <title>x</title><!-- b --></head>'), '<head>\n  <title>x</title></head>');
});

test("canonical and hreflang links: absolute, every edition on each edition's page with x-default, the sources' relative ones gone", () => {
  const page = '<head>\n  <title>x</title>\n  <meta name="description" content="About the block.">\n  <link rel="alternate" hreflang="fr" href="fr/">\n</head>';
  assert.equal(
    withSearchLinks(page, 'index.html', BASE),
    '<head>\n  <title>x</title>\n  <meta name="description" content="About the block.">\n' +
      '  <link rel="canonical" href="https://course.example/tb/">\n' +
      '  <link rel="alternate" hreflang="en" href="https://course.example/tb/">\n' +
      '  <link rel="alternate" hreflang="fr" href="https://course.example/tb/fr/">\n' +
      '  <link rel="alternate" hreflang="x-default" href="https://course.example/tb/">\n</head>',
  );
  const fr = withSearchLinks(page.replace('hreflang="fr" href="fr/"', 'hreflang="en" href="../"'), 'fr/index.html', BASE);
  assert.match(fr, /<link rel="canonical" href="https:\/\/course.example\/tb\/fr\/">/);
  assert.equal([...fr.matchAll(/rel="alternate"/g)].length, 3);
  const gallery = withSearchLinks(page, 'gallery/moe.html', BASE);
  assert.match(gallery, /<link rel="canonical" href="https:\/\/course.example\/tb\/gallery\/moe.html">/);
  assert.doesNotMatch(gallery, /rel="alternate"/);
  assert.throws(() => withSearchLinks('<head><title>x</title></head>', 'gallery/x.html', BASE), /gallery\/x.html has no <meta name="description" content="…">: write one in www\/gallery\/x.html/);
});

test("the stylesheets the prerender linked at the head's end leave the page for styles.css; a widget's stay", () => {
  const html = '<head><link rel="stylesheet" href="../styles.css">\n<link rel="stylesheet" href="../prerendered/b093b9e6a1d8.css"></head><body><tb-x><template shadowrootmode="open"><link rel="stylesheet" href="../prerendered/0123456789ab.css"></template></tb-x>';
  assert.deepEqual(withoutHeadSheets(html), {
    html: '<head><link rel="stylesheet" href="../styles.css">\n</head><body><tb-x><template shadowrootmode="open"><link rel="stylesheet" href="../prerendered/0123456789ab.css"></template></tb-x>',
    sheets: ['prerendered/b093b9e6a1d8.css'],
  });
});
