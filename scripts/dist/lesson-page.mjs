// The lesson page as one file, nothing external: an HTML tokenizer, what a stylesheet or a script
// may not contain to be inlined, the inliner itself, and the Content-Security-Policy hashes.

import { createHash } from 'node:crypto';
import { LESSON_FILE, fail } from './common.mjs';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
/** Attributes whose value the browser may fetch (or, for <a>/<area>, navigate to). */
export const URL_ATTRS = new Set(['src', 'href', 'xlink:href', 'srcset', 'imagesrcset', 'poster', 'data', 'action', 'formaction', 'background', 'manifest', 'ping', 'codebase', 'longdesc']);

function decodeEntities(s) {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function parseAttributes(text) {
  const attrs = new Map();
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of text.matchAll(re)) {
    const name = m[1].toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

/**
 * The page as a list of tokens: { kind: 'text' | 'comment' | 'doctype' | 'start' | 'end', start, end,
 * name, attrs, raw } where a raw-text element (script, style, textarea, title) carries its content in
 * `raw` and `end` is past its closing tag.
 */
export function tokenize(html) {
  const tokens = [];
  let i = 0;
  const text = (from, to) => to > from && tokens.push({ kind: 'text', start: from, end: to });
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    text(i, lt);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      if (close < 0) fail(`unterminated <!-- comment at offset ${lt}`);
      tokens.push({ kind: 'comment', start: lt, end: close + 3 });
      i = close + 3;
      continue;
    }
    const m = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt));
    if (m) {
      const name = m[2].toLowerCase();
      const end = lt + m[0].length;
      if (m[1]) {
        tokens.push({ kind: 'end', name, start: lt, end });
        i = end;
        continue;
      }
      const token = { kind: 'start', name, attrs: parseAttributes(m[3]), start: lt, end, tagEnd: end };
      if (RAW_TEXT.has(name)) {
        const close = html.toLowerCase().indexOf(`</${name}`, end);
        if (close < 0) fail(`<${name}> at offset ${lt} is never closed`);
        const closeEnd = html.indexOf('>', close) + 1;
        token.raw = html.slice(end, close);
        token.end = closeEnd;
      }
      tokens.push(token);
      i = token.end;
      continue;
    }
    if (/^<![A-Za-z]/.test(html.slice(lt, lt + 3))) {
      const close = html.indexOf('>', lt);
      tokens.push({ kind: 'doctype', start: lt, end: close + 1 });
      i = close + 1;
      continue;
    }
    // A lone '<' in text.
    text(lt, lt + 1);
    i = lt + 1;
  }
  text(i, html.length);
  return tokens;
}

export const isData = (url) => /^\s*data:/i.test(url);
export const isFragment = (url) => /^\s*#/.test(url);
export const isWeb = (url) => /^\s*(https?:|mailto:)/i.test(url);

/** Why a CSS text cannot go into the one file as it is, or null. */
export function cssProblem(css) {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  if (/@import\b/i.test(plain)) return 'it uses @import';
  for (const m of plain.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!isData(m[2]) && !isFragment(m[2])) return `it references url(${m[2]})`;
  }
  if (/<\/style/i.test(plain)) return 'it contains "</style"';
  return null;
}

/** Why a script text cannot go into an inline <script>, or null. */
export function inlineScriptProblem(js) {
  if (/<\/script/i.test(js)) return 'it contains "</script", which would end the inline <script> early';
  if (/<!--/.test(js)) return 'it contains "<!--", which changes how an inline <script> is parsed';
  return null;
}

/**
 * Turn the served lesson page into one self-contained file.
 *
 *   html         the page (www/index.html)
 *   readLocal    (path relative to the page) => file text; a stylesheet's contents
 *   bundle       (modules: [{ path } | { code }]) => classic-script JS for the page's module scripts,
 *                in document order, together with every element
 *
 * <link rel=stylesheet href=local> becomes <style>; every <script type=module> is removed and one
 * classic <script> with the bundle goes before </body> (where deferred module scripts would run);
 * an element marked data-online-only (e.g. the "Download this lesson" link) is dropped; a
 * Content-Security-Policy <meta> keeps its strictness, with the hashes of the inline script and
 * styles added (the only way an inline script may run under it). Anything
 * else that names a file (src, href, srcset, poster, url() ...) fails the build, except data: URLs,
 * #fragments, and links (<a>, <area>) to http(s) or mailto addresses, which load nothing.
 */
export async function inlineLessonPage(html, { readLocal, bundle }) {
  const tokens = tokenize(html);
  const out = [];
  const modules = [];
  const problems = [];
  let bodyClose = -1;
  let cspAt = -1; // index in `out` of a <meta http-equiv=Content-Security-Policy>
  let csp = '';
  const inlineScripts = []; // exact contents, for the policy's hashes
  const inlineStyles = [];
  let skipUntil = -1; // index of the token that closes a data-online-only element

  const where = (token) => `line ${html.slice(0, token.start).split('\n').length}`;
  const tagText = (token) => html.slice(token.start, token.tagEnd ?? token.end).replace(/\s+/g, ' ').slice(0, 120);

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (t <= skipUntil) continue;
    if (token.kind === 'comment') continue; // comments go: nothing commented out is checked or kept
    if (token.kind === 'end' && token.name === 'body') bodyClose = out.length;
    if (token.kind !== 'start') {
      out.push(html.slice(token.start, token.end));
      continue;
    }
    const { name, attrs } = token;

    if (attrs.has('data-online-only')) {
      skipUntil = VOID.has(name) || token.raw !== undefined ? t : matchingEnd(tokens, t);
      continue;
    }

    if (name === 'script') {
      const type = (attrs.get('type') ?? '').trim().toLowerCase();
      if (type === 'module') {
        if (attrs.has('src')) {
          const src = attrs.get('src');
          if (isData(src) || isWeb(src) || /^\s*\/\//.test(src)) problems.push(`${where(token)}: module script ${src} is not a file of the page`);
          else modules.push({ path: src });
        } else {
          modules.push({ code: token.raw });
        }
        continue;
      }
      if (type === 'importmap') {
        problems.push(`${where(token)}: an import map has no meaning in the bundled file`);
        continue;
      }
      if (attrs.has('src')) {
        problems.push(`${where(token)}: classic <script src="${attrs.get('src')}"> would be fetched; make it a module script (bundled) or drop it`);
        continue;
      }
      const classic = type === '' || type.includes('javascript');
      const problem = classic ? inlineScriptProblem(token.raw) : null;
      if (problem) problems.push(`${where(token)}: inline script: ${problem}`);
      if (classic) inlineScripts.push(token.raw);
      out.push(html.slice(token.start, token.end));
      continue;
    }

    if (name === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      const href = attrs.get('href') ?? '';
      if (rel.includes('stylesheet')) {
        if (isData(href) || isWeb(href) || /^\s*\/\//.test(href) || href.trim() === '') {
          problems.push(`${where(token)}: stylesheet "${href}" is not a file of the page`);
          continue;
        }
        const css = readLocal(href);
        const problem = cssProblem(css);
        if (problem) problems.push(`${where(token)}: stylesheet ${href}: ${problem}`);
        const media = attrs.has('media') ? ` media="${attrs.get('media').replace(/"/g, '&quot;')}"` : '';
        const content = `\n${css.trimEnd()}\n`;
        inlineStyles.push(content);
        out.push(`<style${media}>${content}</style>`);
        continue;
      }
    }

    if (name === 'base') problems.push(`${where(token)}: <base> changes what every link points at`);
    if (name === 'meta' && (attrs.get('http-equiv') ?? '').toLowerCase() === 'refresh') {
      problems.push(`${where(token)}: <meta http-equiv=refresh> loads another page`);
    }
    if (name === 'meta' && (attrs.get('http-equiv') ?? '').toLowerCase() === 'content-security-policy') {
      if (cspAt >= 0) problems.push(`${where(token)}: a second Content-Security-Policy <meta>`);
      cspAt = out.length;
      csp = attrs.get('content') ?? '';
      out.push(''); // written at the end, with the hashes
      continue;
    }
    if (name === 'style') {
      const problem = cssProblem(token.raw);
      if (problem) problems.push(`${where(token)}: <style>: ${problem}`);
      inlineStyles.push(token.raw);
    }
    for (const [attr, value] of attrs) {
      if (attr === 'style') {
        const problem = cssProblem(value);
        if (problem) problems.push(`${where(token)}: style attribute of <${name}>: ${problem}`);
        continue;
      }
      if (!URL_ATTRS.has(attr)) continue;
      const navigates = (name === 'a' || name === 'area') && attr === 'href';
      const urls = attr.endsWith('srcset') ? value.split(',').map((s) => s.trim().split(/\s+/)[0]) : [value];
      for (const url of urls) {
        if (isData(url) || isFragment(url) || (navigates && isWeb(url))) continue;
        const hint =
          url.trim() === LESSON_FILE
            ? ' (mark the download link, or the element around it, data-online-only: the offline file drops it)'
            : '';
        problems.push(`${where(token)}: ${tagText(token)} references "${url}"${hint}`);
      }
    }
    out.push(html.slice(token.start, token.end));
  }

  if (bodyClose < 0) problems.push('no </body>: nowhere to put the script');
  if (modules.length === 0) problems.push('no <script type="module">: the page has no script to bundle');
  if (problems.length) {
    fail(`the lesson page cannot become one self-contained file:\n  ${problems.join('\n  ')}`);
  }

  const js = await bundle(modules);
  const problem = inlineScriptProblem(js);
  if (problem) fail(`the lesson bundle cannot be inlined: ${problem}`);
  const content = `\n${js.trimEnd()}\n`;
  inlineScripts.push(content);
  if (cspAt >= 0) {
    const policy = withHashes(csp, inlineScripts, inlineStyles);
    out[cspAt] = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  }
  out.splice(bodyClose, 0, `<script>${content}</script>\n`);
  return out.join('');
}

/** The CSP source for an inline element's text (line breaks as the HTML parser leaves them). */
const sha256 = (text) => `'sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}'`;

/**
 * The policy with the hashes of the inline scripts and styles added to the directives that govern
 * them (script-src / style-src, their -elem forms, or default-src when neither is given), unless a
 * directive already allows 'unsafe-inline' (where a hash would switch that off).
 */
export function withHashes(policy, scripts, styles) {
  const directives = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0]);
  const find = (name) => directives.find((d) => d[0].toLowerCase() === name);
  const add = (kind, contents) => {
    if (contents.length === 0) return;
    const hashes = [...new Set(contents.map(sha256))];
    let targets = [find(`${kind}-src`), find(`${kind}-src-elem`)].filter(Boolean);
    if (targets.length === 0) {
      const fallback = find('default-src');
      if (!fallback) return; // nothing restricts them
      const own = [`${kind}-src`, ...fallback.slice(1).filter((s) => s !== "'none'")];
      directives.push(own);
      targets = [own];
    }
    for (const d of targets) {
      if (d.some((s) => s.toLowerCase() === "'unsafe-inline'")) continue;
      const keep = d.filter((s) => s !== "'none'");
      d.splice(0, d.length, ...keep, ...hashes);
    }
  };
  add('script', scripts);
  add('style', styles);
  return directives.map((d) => d.join(' ')).join('; ');
}

/** The index of the token that closes the element opened at tokens[open] (same name, nested). */
function matchingEnd(tokens, open) {
  const name = tokens[open].name;
  let depth = 0;
  for (let t = open; t < tokens.length; t++) {
    const token = tokens[t];
    if (token.name !== name) continue;
    if (token.kind === 'start') depth++;
    else if (token.kind === 'end' && --depth === 0) return t;
  }
  fail(`<${name} data-online-only> is never closed`);
}
