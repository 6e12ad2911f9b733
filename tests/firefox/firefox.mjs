// What the Firefox smoke test (smoke.test.mjs) stands on: the static server on a free port, headless
// Firefox ESR driven through geckodriver with selenium-webdriver, and the few ways the test reads
// and drives widgets inside their shadow roots.
//
// Nothing here downloads anything: geckodriver and Firefox are found on this machine (see `tool`)
// and handed to selenium-webdriver, so its Selenium Manager never runs. A missing one is an error
// that says where it looked.

import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Key, Select } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import LogInspector from 'selenium-webdriver/bidi/logInspector.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The first executable of `names` in $envVar, on PATH, then in `extraDirs`; else a clear error. */
function tool(what, envVar, names, extraDirs) {
  const candidates = [
    ...(process.env[envVar] ? [process.env[envVar]] : []),
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => names.map((n) => join(dir, n))),
    ...extraDirs.flatMap((dir) => names.map((n) => join(dir, n))),
  ];
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not this one
    }
  }
  throw new Error(`${what} not found (set ${envVar}, or run make setup); looked for ${names.join(', ')} in $${envVar}, on PATH and in ${extraDirs.join(', ')}`);
}

export const geckodriverPath = () => tool('geckodriver', 'GECKODRIVER', ['geckodriver'], [join(homedir(), '.cargo/bin')]);
export const firefoxPath = () => tool('Firefox', 'FIREFOX', ['firefox-esr', 'firefox'], ['/usr/bin', '/usr/lib/firefox-esr']);

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** scripts/serve.mjs on a free port (serving `root`, by default www/): { origin, stop() }, once it says it is listening. */
export async function startServer(root = null) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'scripts/serve.mjs'), ...(root ? [root] : [])], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.mjs did not start within 10 s: ${output}`)), 10_000);
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('serving ')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.mjs exited (${code}): ${output}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

/**
 * Headless Firefox with WebDriver BiDi on, recording every uncaught exception and every console
 * error or warning of any page it opens into `problems`. Returns { driver, problems, quit() }.
 */
export async function startFirefox() {
  const options = new firefox.Options().setBinary(firefoxPath()).addArguments('-headless').windowSize({ width: 1280, height: 900 }).enableBidi();
  const service = new firefox.ServiceBuilder(geckodriverPath()).build();
  const driver = await firefox.Driver.createSession(options, service);
  const problems = [];
  const inspector = await LogInspector(driver);
  await inspector.onJavascriptException((entry) => problems.push(`uncaught: ${entry.text}`));
  await inspector.onConsoleEntry((entry) => {
    if (entry.level === 'error' || entry.level === 'warn') problems.push(`console ${entry.level}: ${entry.text}`);
  });
  await driver.manage().setTimeouts({ script: 30_000, pageLoad: 30_000 });
  const quit = async () => {
    await inspector.close().catch(() => {});
    await driver.quit();
  };
  return { driver, problems, quit };
}

/**
 * Waits until every <tb-…> element is defined and has shown its first render (its `rendered`
 * promise, see www/src/elements/base.js); returns the ones still waiting after `ms` (so [] is good).
 */
export function unrenderedWidgets(driver, ms = 20_000) {
  return driver.executeAsyncScript(
    (ms, done) => {
      const pending = new Set([...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-')));
      const name = (el) => `${el.localName}${el.getAttribute('name') ? ` ${el.getAttribute('name')}` : ''}`;
      const report = () => done([...pending].map(name));
      setTimeout(report, ms);
      for (const el of pending) {
        customElements.whenDefined(el.localName).then(() => el.rendered).then(() => {
          pending.delete(el);
          if (!pending.size) report();
        });
      }
      if (!pending.size) report();
    },
    ms,
  );
}

/** The visible messages widgets show in their shadow roots (.error, .message): [] when all is well. */
export function widgetMessages(driver) {
  return driver.executeScript(() => {
    const found = [];
    for (const el of document.querySelectorAll('*')) {
      if (!el.localName.startsWith('tb-') || !el.shadowRoot) continue;
      for (const m of el.shadowRoot.querySelectorAll('.error, .message')) {
        if (!m.hidden && m.closest('[hidden]') === null && m.textContent.trim() !== '') found.push(`${el.localName}: ${m.textContent.trim()}`);
      }
    }
    return found;
  });
}

/**
 * One widget on the page, by a CSS selector for its host element: reads text inside its shadow
 * root, finds its controls by their labels, and drives them through WebDriver.
 */
export class Widget {
  constructor(driver, host) {
    this.driver = driver;
    this.host = host;
  }

  /** textContent of every match of `selector` in the shadow root (of the root itself without one). */
  texts(selector = null) {
    return this.driver.executeScript(
      (host, selector) => {
        const root = document.querySelector(host)?.shadowRoot;
        if (!root) return null;
        return selector ? [...root.querySelectorAll(selector)].map((el) => el.textContent) : [root.textContent];
      },
      this.host,
      selector,
    );
  }

  /** A property of the first match of `selector` in the shadow root (value, open, ariaPressed …). */
  prop(selector, name) {
    return this.driver.executeScript((host, selector, name) => document.querySelector(host)?.shadowRoot.querySelector(selector)?.[name] ?? null, this.host, selector, name);
  }

  /** The control (input, select, button, summary) whose label, aria-label or text is `label`. */
  async control(label) {
    const el = await this.driver.executeScript(
      (host, label) => {
        const root = document.querySelector(host)?.shadowRoot;
        if (!root) return null;
        const named = (c) => [c.getAttribute('aria-label'), ...[...(c.labels ?? [])].map((l) => l.textContent), c.matches('button, summary') ? c.textContent : null];
        return [...root.querySelectorAll('input, select, button, summary')].find((c) => named(c).some((n) => n?.trim() === label)) ?? null;
      },
      this.host,
      label,
    );
    if (!el) throw new Error(`${this.host}: no control labelled "${label}"`);
    return el;
  }

  /** Replaces a text or number field's value: clears it, types `text` key by key, then Tab away. */
  async type(label, text) {
    const field = await this.control(label);
    await field.clear();
    await field.sendKeys(String(text), Key.TAB);
  }

  /** Presses keys on a control (a slider: Key.END, Key.ARROW_LEFT …). */
  async press(label, ...keys) {
    await (await this.control(label)).sendKeys(...keys);
  }

  async click(label) {
    await (await this.control(label)).click();
  }

  async select(label, value) {
    await new Select(await this.control(label)).selectByValue(value);
  }

  /**
   * Waits until `read()` gives what `expected` asks for (a value compared as JSON, a RegExp the
   * value must match, or a predicate); fails with the last value read.
   */
  async until(what, read, expected, timeout = 10_000) {
    const ok =
      expected instanceof RegExp ? (v) => typeof v === 'string' && expected.test(v) : typeof expected === 'function' ? expected : (v) => JSON.stringify(v) === JSON.stringify(expected);
    let last;
    try {
      await this.driver.wait(async () => ok((last = await read())), timeout);
    } catch {
      throw new Error(`${this.host}: ${what}: expected ${expected instanceof RegExp || typeof expected === 'function' ? expected : JSON.stringify(expected)}, got ${JSON.stringify(last)} after ${timeout} ms`);
    }
    return last;
  }

  /** Waits until the texts of `selector` are `expected` (a list, or a RegExp the first must match). */
  untilTexts(selector, expected, timeout) {
    return this.until(selector, () => this.texts(selector).then((t) => (expected instanceof RegExp ? t?.[0] : t)), expected, timeout);
  }
}
