// Where the prerender puts each widget's template and the page's prerendered regions
// (www/src/prerender/insert.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { insertTemplates, replaceRegions, widgetTags } from '../../www/src/prerender/insert.js';

const T = (text) => `<template shadowrootmode="open">${text}</template>`;

test('finds the widgets in document order, not the tags named in comments, scripts, styles or templates', () => {
  const html = `<p>A <tb-number value="a"></tb-number></p><!-- <tb-masks> -->
<script>const s = '<tb-moe>';</script><style>/* <tb-train> */</style><template><tb-memory></tb-memory></template>
<code>&lt;tb-number&gt;</code><tb-masks tokens="3">x</tb-masks><TB-MOE></TB-MOE>`;
  assert.deepEqual(widgetTags(html).map((w) => w.tag), ['tb-number', 'tb-masks', 'tb-moe']);
});

test('puts each template right after its open tag, and replaces the one a page already has', () => {
  const html = '<tb-number value="a"></tb-number> and <tb-masks tokens="3"></tb-masks>';
  const once = insertTemplates(html, [{ tag: 'tb-number', template: T('<span>12</span>') }, { tag: 'tb-masks', template: T('<h3>Masks</h3>') }], 'p');
  assert.equal(once, `<tb-number value="a">${T('<span>12</span>')}</tb-number> and <tb-masks tokens="3">${T('<h3>Masks</h3>')}</tb-masks>`);
  const twice = insertTemplates(once, [{ tag: 'tb-number', template: T('<span>80</span>') }, { tag: 'tb-masks', template: T('<h3>Masks</h3>') }], 'p');
  assert.equal(twice, once.replace('12', '80'));
});

test('refuses widgets that are not the ones the browser rendered, naming the page', () => {
  const html = '<tb-number></tb-number><tb-masks></tb-masks>';
  assert.throws(() => insertTemplates(html, [{ tag: 'tb-number', template: '' }], 'lesson.html'), /lesson\.html: the source has 2 <tb-…> elements, the browser rendered 1/);
  assert.throws(
    () => insertTemplates(html, [{ tag: 'tb-number', template: '' }, { tag: 'tb-moe', template: '' }], 'lesson.html'),
    /widget 2 is <tb-masks> in the source, <tb-moe> in the browser/,
  );
});

test('replaces a region by its id, nested tags of its kind counted, and adds the head stylesheets', () => {
  const html = '<head><title>x</title></head><body><table id="models" hidden><tbody><tr><td><table><tr><td>1</td></tr></table></td></tr></tbody></table><p>after</p></body>';
  const out = replaceRegions(html, [{ id: 'models', html: '<table id="models"><tbody><tr><td>8</td></tr></tbody></table>' }], '<link rel="stylesheet" href="a.css">', 'p');
  assert.equal(out, '<head><title>x</title><link rel="stylesheet" href="a.css"></head><body><table id="models"><tbody><tr><td>8</td></tr></tbody></table><p>after</p></body>');
  assert.throws(() => replaceRegions(html, [{ id: 'nope', html: '' }], '', 'p'), /p: no element with id="nope"/);
});
