// Where Node's DOM for the renderer (happy-dom) differs from a browser in what the elements use,
// mended in the renderer's worker only (page-worker.js), so that a page renders there as it does in
// Chromium. Each mend names the browser behaviour it restores; the renderer's test
// (tests/e2e/render.spec.js) compares every gallery page with Chromium's prerender, which is how a
// new difference shows.

/** HTML's "valid floating-point number" (with an exponent: 7e9), what a number input's value is. */
const FLOAT = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function mendDomGaps(window) {
  // A number input's value "7e9" is a number, not bad input (happy-dom's test has no exponent).
  const validity = Object.getOwnPropertyDescriptor(window.ValidityState.prototype, 'badInput');
  Object.defineProperty(window.ValidityState.prototype, 'badInput', {
    configurable: true,
    get() {
      const input = this.element ?? null;
      if (input?.localName === 'input' && (input.type === 'number' || input.type === 'range')) {
        return input.value.length > 0 && !FLOAT.test(input.value);
      }
      return validity.get.call(this);
    },
  });
}

/**
 * A widget's markup as a browser serialises it: HTML's serialisation writes U+00A0 as &nbsp; in
 * attribute values as in text, and happy-dom leaves it raw in attribute values (a French chart's
 * aria-label: "18 %"). Its text is escaped already, so a raw U+00A0 left is an attribute's.
 */
export const escapedLikeBrowsers = (html) => html.replaceAll('\u00a0', '&nbsp;');
