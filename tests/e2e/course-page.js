// A made-up course site for the specs of what make dist ships (dist.spec.js, npm.spec.js): its
// policy, a server of given files that refuses every other request, and a watch on what a page does
// wrong. (scripts/dist/course-site.mjs serves the folder and the one file for autoloader.spec.js.)
import { recordProblems } from './helpers.js';
import { SITE } from '../../scripts/dist/course-site.mjs';

export { SITE };

/** The policy docs/embedding.md recommends: nothing inline, no eval; WebAssembly compiles. */
export const STRICT_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/**
 * Records what a page does wrong (see recordProblems: console errors and warnings, uncaught
 * exceptions, failed requests and requests beyond `origin`), CSP violations (an init script listens
 * for securitypolicyviolation), and counts WebAssembly instantiations by wrapping
 * WebAssembly.instantiate, instantiateStreaming and the Instance constructor.
 */
export async function watch(page, origin = SITE) {
  const problems = recordProblems(page, { origin });
  await page.addInitScript(() => {
    const tb = (window.__tb = { violations: [], instances: 0 });
    document.addEventListener('securitypolicyviolation', (e) => {
      tb.violations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
    // The facade's instances: a module given imports (wasm-bindgen's). The xz decoder that unpacks
    // the inlined wasm is instantiated with none, and is not counted.
    const facade = (imports) => imports !== undefined && Object.keys(imports).length > 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        if (facade(args[1])) tb.instances++;
        return original.apply(this, args);
      };
    }
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
      construct(target, args, newTarget) {
        if (facade(args[1])) tb.instances++;
        return Reflect.construct(target, args, newTarget);
      },
    });
  });
  return problems;
}

/**
 * Serves `files` ({ path: { body, type, headers } }) at SITE and refuses every other request;
 * returns the list of every URL requested.
 */
export async function serveSite(context, files) {
  const requested = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    const file = url.startsWith(`${SITE}/`) ? files[new URL(url).pathname] : undefined;
    if (!file) return route.abort('blockedbyclient');
    return route.fulfill({
      status: 200,
      headers: { 'Content-Type': file.type, ...(file.headers ?? {}) },
      body: file.body,
    });
  });
  return requested;
}

export const htmlFile = (body, csp = STRICT_CSP) => ({
  body,
  type: 'text/html; charset=utf-8',
  headers: csp ? { 'Content-Security-Policy': csp } : {},
});

/** The text inside an element's shadow root. */
export const shadowText = (locator) => locator.evaluate((el) => el.shadowRoot.textContent);
