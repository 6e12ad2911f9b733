// custom-elements.json, the elements' manifest (the Custom Elements Manifest schema, 1.0.0), and the
// check that it agrees with the elements. `make dist` writes it into dist/npm/ and
// dist/transformer-block/; the package's types (types.mjs) and VS Code's data (vscode.mjs) are made
// from it.
//
//   const manifest = buildManifest();        // analyzed and tidied, as published
//   checkManifest(manifest, scanElements()); // throws a BuildError listing every disagreement
//
// What it says comes from the source: @custom-elements-manifest/analyzer reads every file under
// www/src/elements/ (its programmatic API, `create`: no config file, no globbing), and each class's
// doc comment gives the rest: @summary, @attr {type} [name=default] - description, @fires and
// @cssprop. The events and the CSS custom properties are documented once, on TbElement (base.js),
// and the analyzer gives them to every element with `inheritedFrom`.
//
// Tidied, it keeps what an author or an editor uses: the modules that define an element (their
// paths, elements/NAME.js, are the package's per-element modules, and the folder's), each with its
// element class alone, and TbElement under the module that exports it, the package's index.js (the
// folder's copy names the shared chunk the class sits in instead, inFolder). A class keeps
// only the members its doc comment marks @public; the rest (render, the private fields) is how the
// element works, not what a page may use.

import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { create, ts } from '@custom-elements-manifest/analyzer';
import { ELEMENTS, ROOT, SRC, fail } from './common.mjs';
import { THEME_CSS } from '../../www/src/elements/theme.js';

/** Where TbElement is defined, as the analyzer names it, and the module it is published under. */
const BASE_SOURCE = 'elements/base.js';
const BASE_MODULE = 'index.js';
const BASE_CLASS = 'TbElement';

/** Every .js file under `dir`, as [path relative to www/src/ ('elements/attention.js'), text]. */
function sources(dir = ELEMENTS) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) found.push([relative(SRC, path).split(sep).join('/'), readFileSync(path, 'utf8')]);
    }
  };
  walk(dir);
  return found.sort(([a], [b]) => a.localeCompare(b));
}

/** The analyzer's manifest of every module under www/src/elements/, untouched. */
export function analyze(dir = ELEMENTS) {
  const modules = sources(dir).map(([path, text]) => ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true));
  return create({ modules });
}

/** One line: the doc comments wrap their prose, which a hover or a list shows reflowed. */
const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ').trim();
/** An attribute's default as an author writes it: "the residual", not "\"the residual\"". */
const unquoted = (text) => text.replace(/^"(.*)"$/, '$1');
/** A reference to TbElement's module (the analyzer writes '/elements/base.js' for a superclass). */
const published = (ref) => (ref?.module?.replace(/^\//, '') === BASE_SOURCE ? { ...ref, module: BASE_MODULE } : ref);

function tidyClass(decl) {
  const out = { ...decl };
  if (!out.description) delete out.description;
  if (out.summary) out.summary = oneLine(out.summary);
  if (out.superclass) out.superclass = published(out.superclass);
  out.members = (decl.members ?? [])
    .filter((m) => m.privacy === 'public')
    .map(({ default: _code, ...m }) => ({ ...m, ...(m.description && { description: oneLine(m.description) }), ...(m.inheritedFrom && { inheritedFrom: published(m.inheritedFrom) }) }));
  for (const kind of ['attributes', 'events', 'cssProperties']) {
    out[kind] = (decl[kind] ?? []).map((item) => ({
      ...item,
      ...(item.description && { description: oneLine(item.description) }),
      ...(item.default !== undefined && { default: unquoted(item.default) }),
      ...(item.inheritedFrom && { inheritedFrom: published(item.inheritedFrom) }),
    }));
  }
  for (const kind of ['members', 'attributes', 'events', 'cssProperties', 'cssParts', 'slots', 'cssStates']) {
    if (out[kind]?.length === 0) delete out[kind];
  }
  return out;
}

/** The published manifest from the analyzer's: the element modules and TbElement (see the top). */
export function tidy(raw) {
  const modules = [];
  for (const mod of raw.modules) {
    if (mod.path === BASE_SOURCE) {
      const base = mod.declarations.find((d) => d.name === BASE_CLASS);
      if (!base) fail(`www/src/${BASE_SOURCE} declares no class ${BASE_CLASS}`);
      modules.unshift({
        kind: 'javascript-module',
        path: BASE_MODULE,
        declarations: [tidyClass(base)],
        exports: [{ kind: 'js', name: BASE_CLASS, declaration: { name: BASE_CLASS, module: BASE_MODULE } }],
      });
      continue;
    }
    const elements = mod.declarations.filter((d) => d.kind === 'class' && d.tagName);
    if (elements.length === 0) continue;
    const names = new Set(elements.map((d) => d.name));
    modules.push({
      kind: 'javascript-module',
      path: mod.path,
      declarations: elements.map(tidyClass),
      exports: mod.exports.filter((e) => names.has(e.declaration?.name)),
    });
  }
  return { schemaVersion: raw.schemaVersion, readme: raw.readme, modules };
}

/**
 * The manifest as the folder publishes it (dist/transformer-block/): the folder has no index.js, and
 * TbElement sits in the shared chunk `baseChunk` ('chunks/chunk-….js'), under a name of esbuild's,
 * so that module declares it and exports nothing, and every reference to it names that chunk.
 */
export function inFolder(manifest, baseChunk) {
  const moved = (value) => {
    if (Array.isArray(value)) return value.map(moved);
    if (value === null || typeof value !== 'object') return value;
    const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moved(v)]));
    if (copy.module === BASE_MODULE) copy.module = baseChunk;
    return copy;
  };
  const folder = moved(manifest);
  const base = folder.modules.find((m) => m.path === BASE_MODULE);
  if (!base) fail(`the manifest has no module ${BASE_MODULE} to move into the folder's ${baseChunk}`);
  base.path = baseChunk;
  delete base.exports;
  return folder;
}

/** The manifest `make dist` publishes. */
export function buildManifest(dir = ELEMENTS) {
  return tidy(analyze(dir));
}

/** Every element class in `manifest`: [{ module, decl }]. */
export function manifestElements(manifest) {
  return manifest.modules.flatMap((module) => module.declarations.filter((d) => d.tagName).map((decl) => ({ module, decl })));
}

/**
 * The attributes a class observes, read from its source `text`: `static observedAttributes` as a
 * list of strings, or as LIST.map((f) => f.attr) over a module-level list of object literals (as
 * training-cost.js writes it). [] when the class declares none; null when it is written some
 * other way, which the check then asks to be written plainly.
 */
export function observedAttributes(text, className) {
  const file = ts.createSourceFile('element.js', text, ts.ScriptTarget.ES2022, true);
  const cls = file.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!cls) return null;
  const member = cls.members.find((m) => m.name?.getText() === 'observedAttributes' && m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword));
  if (!member) return [];
  const expr = ts.isPropertyDeclaration(member) ? member.initializer : member.body?.statements.find(ts.isReturnStatement)?.expression;
  const str = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null);
  const all = (values) => (values.every((v) => v !== null) ? values : null);
  if (expr && ts.isArrayLiteralExpression(expr)) return all(expr.elements.map(str));
  // LIST.map((f) => f.attr)
  const call = expr && ts.isCallExpression(expr) ? expr : null;
  const callee = call?.expression;
  const fn = call?.arguments[0];
  if (!callee || !ts.isPropertyAccessExpression(callee) || callee.name.text !== 'map' || !ts.isIdentifier(callee.expression)) return null;
  if (!fn || !ts.isArrowFunction(fn) || fn.parameters.length !== 1 || !ts.isPropertyAccessExpression(fn.body)) return null;
  if (fn.body.expression.getText() !== fn.parameters[0].name.getText()) return null;
  const field = fn.body.name.text;
  const list = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((s) => s.declarationList.declarations)
    .find((d) => d.name.getText() === callee.expression.text)?.initializer;
  if (!list || !ts.isArrayLiteralExpression(list)) return null;
  return all(
    list.elements.map((item) => {
      if (!ts.isObjectLiteralExpression(item)) return null;
      const prop = item.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === field);
      return str(prop?.initializer);
    }),
  );
}

/** The events `this.dispatchEvent(new …('name'` dispatches in a source text. */
function dispatched(text) {
  return [...text.matchAll(/this\.dispatchEvent\(\s*new\s+\w+\(\s*(['"`])([^'"`]+)\1/g)].map((m) => m[2]);
}

/**
 * The theme's custom properties, from THEME_CSS: { '--tb-bg': { light: '#ffffff', dark: '#1b1e23' } }
 * (light: the :host block's fallback; dark: the prefers-color-scheme: dark block's, when it has one).
 */
export function themeProperties(css = THEME_CSS) {
  const props = {};
  const dark = css.indexOf('@media (prefers-color-scheme: dark)');
  for (const m of css.matchAll(/var\((--tb-[\w-]+),\s*([^;]+)\);/g)) {
    const [, name, value] = m;
    const fallback = value.trim();
    props[name] ??= {};
    if (dark >= 0 && m.index > dark) props[name].dark = fallback;
    else props[name].light ??= fallback;
  }
  return props;
}

/**
 * Throws (fail) when `manifest` and the elements (scanElements) disagree, listing each problem with
 * what to write: an element missing or under another class or module; an observed attribute not
 * documented, or a documented one not observed; an attribute, event or CSS property without a
 * description; an event the element dispatches but does not document; a theme property (theme.js)
 * not documented on TbElement, or documented with another default. `read(file)` gives a source text.
 */
export function checkManifest(manifest, elements, { read = (file) => readFileSync(file, 'utf8'), theme = themeProperties() } = {}) {
  const problems = [];
  const inManifest = manifestElements(manifest);
  const baseText = read(join(SRC, BASE_SOURCE));
  const doc = (e) => `the doc comment above class ${e.className} in ${relative(ROOT, e.file)}`;
  for (const e of elements) {
    const found = inManifest.find(({ decl }) => decl.tagName === e.tag);
    if (!found) {
      problems.push(`<${e.tag}> (${e.className}, ${relative(ROOT, e.file)}) is not in the manifest: the analyzer found no customElements.define('${e.tag}', ${e.className})`);
      continue;
    }
    const { module, decl } = found;
    const path = relative(SRC, e.file).split(sep).join('/');
    if (decl.name !== e.className || module.path !== path) {
      problems.push(`<${e.tag}> is ${decl.name} in ${module.path} in the manifest, but ${e.className} in ${path}`);
    }
    if (decl.superclass?.name !== BASE_CLASS) {
      problems.push(`<${e.tag}>: ${e.className} extends ${decl.superclass?.name ?? 'nothing'}; the package's types declare every element a ${BASE_CLASS}`);
    }

    const text = read(e.file);
    const observed = observedAttributes(text, e.className);
    const documented = (decl.attributes ?? []).map((a) => a.name);
    if (observed === null) {
      problems.push(`<${e.tag}>: cannot read ${e.className}'s static observedAttributes in ${relative(ROOT, e.file)}: write it as a list of strings`);
    } else {
      for (const name of observed.filter((n) => !documented.includes(n))) {
        problems.push(`<${e.tag}> observes '${name}' but does not document it: add @attr {type} [${name}=default] - what it does, to ${doc(e)}`);
      }
      for (const name of documented.filter((n) => !observed.includes(n))) {
        problems.push(`<${e.tag}> documents '${name}', which ${e.className} does not observe: remove its @attr from ${doc(e)}, or add '${name}' to static observedAttributes`);
      }
    }
    for (const a of (decl.attributes ?? []).filter((a) => !a.description)) {
      problems.push(`<${e.tag}>: attribute '${a.name}' has no description: write @attr {type} [${a.name}=default] - what it does, allowed values, in ${doc(e)}`);
    }

    const events = decl.events ?? [];
    for (const name of new Set([...dispatched(text), ...dispatched(baseText)])) {
      if (!events.some((ev) => ev.name === name)) {
        problems.push(`<${e.tag}> dispatches '${name}' but does not document it: add @fires ${name} - when, and its detail, to ${doc(e)}`);
      }
    }
    for (const ev of events.filter((ev) => !ev.description)) {
      problems.push(`<${e.tag}>: event '${ev.name}' has no description: add @fires ${ev.name} - when, and its detail, to ${doc(e)}`);
    }

    const props = decl.cssProperties ?? [];
    for (const [name, { light, dark }] of Object.entries(theme)) {
      const prop = props.find((p) => p.name === name);
      const where = `the doc comment above class ${BASE_CLASS} in www/src/${BASE_SOURCE}`;
      if (!prop) problems.push(`<${e.tag}> lacks the theme's ${name} (theme.js): add @cssprop [${name}=${light}] - what it sets, to ${where}`);
      else if (prop.default !== light) problems.push(`<${e.tag}>: ${name} is documented with default ${prop.default}, but theme.js falls back to ${light}: correct @cssprop in ${where}`);
      else if (!prop.description || (dark && !prop.description.includes(dark))) {
        problems.push(`<${e.tag}>: ${name} needs a description${dark ? ` naming its dark-scheme default, ${dark}` : ''}: correct @cssprop in ${where}`);
      }
    }
  }
  for (const { decl } of inManifest.filter(({ decl }) => !elements.some((e) => e.tag === decl.tagName))) {
    problems.push(`the manifest has <${decl.tagName}> (${decl.name}), which no customElements.define under www/src/elements/ defines`);
  }
  if (problems.length) fail(`custom-elements.json and the elements disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}
