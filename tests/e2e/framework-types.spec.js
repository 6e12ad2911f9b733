// The npm package's types for the frameworks an author writes pages in (dist/npm/types/, made by
// scripts/dist/framework-types.mjs from custom-elements.json): each framework's own checker accepts
// a page that uses the elements as the lesson does and rejects, on its line, each of four mistakes:
// a misspelt attribute, a value outside an attribute's values, a misspelt preset, a number that is
// not one. The fixtures are tests/types/{react,vue,svelte}/ (Ok.* and Bad.*). In Node, no browser:
// about 1 s for tsc, 2 s for vue-tsc and svelte-check.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules/.bin');

/** The four mistakes of every Bad fixture, by line, and what the checker's message must name. */
const MISTAKES = (first) => [
  { line: first, says: /tokenz/ },
  { line: first + 1, says: /compactt/ },
  { line: first + 2, says: /gpt2-smal/ },
  { line: first + 3, says: /three/ },
];

/** { file, line, text } of each error a checker printed. */
function errors(command, args, dir, pattern) {
  const run = spawnSync(join(BIN, command), args, { cwd: join(ROOT, 'tests/types', dir), encoding: 'utf8', timeout: 120_000 });
  const out = `${run.stdout}\n${run.stderr}`;
  const found = [...out.matchAll(pattern)].map((m) => ({ file: m.groups.file, line: Number(m.groups.line), text: m.groups.text }));
  return { found, status: run.status, out };
}

const CHECKERS = [
  // tsc and vue-tsc: "bad.tsx(4,44): error TS2322: …"
  { name: 'React 19 JSX (tsc)', dir: 'react', command: 'tsc', args: ['-p', '.'], bad: 'bad.tsx', first: 4, pattern: /^(?<file>[\w.]+)\((?<line>\d+),\d+\): error (?<text>.*)$/gm },
  { name: 'Vue templates (vue-tsc)', dir: 'vue', command: 'vue-tsc', args: ['-p', '.'], bad: 'Bad.vue', first: 3, pattern: /^(?<file>[\w.]+)\((?<line>\d+),\d+\): error (?<text>.*)$/gm },
  // svelte-check --output machine: '1796… ERROR "Bad.svelte" 2:11 "…"'
  {
    name: 'Svelte (svelte-check)',
    dir: 'svelte',
    command: 'svelte-check',
    args: ['--tsconfig', './tsconfig.json', '--output', 'machine'],
    bad: 'Bad.svelte',
    first: 2,
    pattern: /^\d+ ERROR "(?<file>[\w.]+)" (?<line>\d+):\d+ (?<text>.*)$/gm,
  },
];

test.describe.configure({ mode: 'parallel' });

for (const checker of CHECKERS) {
  test(`${checker.name}: the lesson's use type-checks; a misspelt attribute, a value outside its values, a misspelt preset and a word for a number each fail on their line`, () => {
    test.setTimeout(120_000);
    const { found, status, out } = errors(checker.command, checker.args, checker.dir, checker.pattern);
    expect(status, out).not.toBe(0);
    expect(found.filter((e) => e.file !== checker.bad), 'errors outside the Bad fixture').toEqual([]);
    const lines = found.map((e) => e.line);
    expect(lines, out).toEqual(MISTAKES(checker.first).map((m) => m.line));
    MISTAKES(checker.first).forEach((m, i) => expect(found[i].text).toMatch(m.says));
  });
}

test('the package exports each framework\'s types where the fixtures take them from', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'dist/npm/package.json'), 'utf8'));
  for (const name of ['jsx', 'vue', 'svelte']) {
    expect(pkg.exports[`./${name}`]).toEqual({ types: `./types/${name}.d.ts` });
    expect(existsSync(join(ROOT, 'dist/npm/types', `${name}.d.ts`))).toBe(true);
  }
});
