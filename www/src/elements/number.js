// <tb-number>: one number from the wasm, inline in a sentence, so lesson prose never types a model
// figure by hand.
//
//   <tb-number value="total_params"></tb-number>                         124,439,808 (GPT-2 small)
//   <tb-number model="llama3-70b" value="groups.embeddings.share" format="percent"></tb-number>
//   <tb-number source="example:layernorm" value="output.0" format="decimal"></tb-number>   -1.342
//
// Attributes: model (default gpt2-small), seq-len (default 8), batch (default 1), source (count, the
// default; defaults; training-run; training-data; shipped-model; shipped-model-six; heads; heads-six;
// heads-untrained; example:residual|layernorm|gelu|feed-forward|tiny-gpt|tied-output|
// masks|param-count|moe-routing|moe-sizes|balance|flops), args (a JSON list replacing the example's
// default arguments), value (a dotted path into the result), format (integer|compact|percent|si|
// si-G|…|scientific|bytes|decimal|vector|shape|text), digits (decimal places, or significant digits
// for scientific). A bad attribute shows a short bracketed message in place of the number, with the
// whole explanation in its tooltip; nothing is logged.

import { TbElement } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { numberFromAttributes, runSource, sourceNeedsModel } from '../lesson-values.js';

const STYLES = sheet(`
:host {
  display: inline;
  contain: none;
  margin: 0;
  padding: 0;
  border: 0;
  border-radius: 0;
  background: none;
  color: inherit;
  font: inherit;
  overflow-wrap: normal;
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
}
@layer inherited {
  :host > * { color: inherit; font: inherit; overflow-wrap: normal; }
}
.message, .error {
  white-space: normal;
  display: inline;
  margin: 0;
  padding: 0;
  border: 0;
  color: var(--_error);
  font-style: italic;
  cursor: help;
}
`);

// Results shared by every <tb-number> on the page: the same report is asked for dozens of times.
const cache = new Map();
const CACHE_LIMIT = 64;

function cached(key, compute) {
  if (cache.has(key)) return cache.get(key);
  const result = compute();
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
  cache.set(key, result);
  return result;
}

/**
 * @summary One number from the library, inline in a sentence: a field of a result, formatted.
 *   A bad attribute shows a short bracketed message in its place, the whole one in its tooltip.
 *
 * @attr {'tiny-gpt' | 'gpt2-small' | 'gpt2-medium' | 'gpt2-large' | 'gpt2-xl' | 'llama3-8b' | 'llama3-70b' | 'mixtral-8x7b' | string} [model=gpt2-small]
 *   - The model for source count: a preset, or the text of a Hugging Face config.json.
 * @attr {number} [seq-len=8] - T, for source count.
 * @attr {number} [batch=1] - B, for source count.
 * @attr {'count' | 'defaults' | 'training-data' | 'shipped-model-six' | 'shipped-model' | 'heads' | 'heads-six' | 'heads-untrained' | 'training-run' | 'example:residual' | 'example:layernorm' | 'example:gelu' | 'example:feed-forward' | 'example:tiny-gpt' | 'example:tied-output' | 'example:masks' | 'example:param-count' | 'example:moe-routing' | 'example:moe-sizes' | 'example:balance' | 'example:flops'} [source=count]
 *   - The result the number is taken from: the model's report (count), the examples' inputs
 *   (defaults), TinyGPT's training data, a shipped model, where its heads look, nanoGPT's GPT-2 run,
 *   or a worked example run on the lessons' inputs. Underscores for hyphens work, and an example's
 *   name without "example:".
 * @attr {string} args - A JSON list of arguments replacing the example's default inputs, e.g. "[70e9, 1e12]".
 * @attr {string} value - The dotted path of the number in the result: a field, a list item by index
 *   (output.0) or by its key, name, part, group or dtype (groups.attention.share). Blank: the whole result.
 * @attr {'integer' | 'compact' | 'percent' | 'si' | 'si-k' | 'si-M' | 'si-G' | 'si-T' | 'si-P' | 'scientific' | 'bytes' | 'decimal' | 'vector' | 'shape' | 'text'} format
 *   - How the number is written. Blank: integer for a whole number, decimal otherwise, vector for a
 *   list, text for words.
 * @attr {number} [digits=3] - Decimal places for decimal and vector; significant digits for scientific.
 */
export class TbNumber extends TbElement {
  static observedAttributes = ['model', 'seq-len', 'batch', 'source', 'args', 'value', 'format', 'digits'];
  static styles = [STYLES];
  /** It sits inside a sentence: a prerender that inlines styles leaves the theme's box out. */
  static inline = true;

  #connected = false; // connected once: attribute changes from now on are edits, not the upgrade's
  #edited = false; // an attribute changed since the page was built: the prerendered number is stale

  // The number is the shadow root's one text node, no element around it: a lesson has a hundred and
  // more of them, and each element is one more for the page to style and lay out.
  constructor() {
    super();
    if (!this.prerendered) this.shadowRoot.append('…');
  }

  connectedCallback() {
    this.#connected = true;
    super.connectedCallback();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#connected && oldValue !== newValue) this.#edited = true;
    super.attributeChangedCallback(name, oldValue, newValue);
  }

  /**
   * The prerendered number is the one its first render would write, made by the same library for
   * the same attributes and language when the page was built: taken as it is, so a hundred and more
   * numbers go live without a call into the wasm (or fetching TinyGPT for one of its figures).
   */
  adoptsPrerendered() {
    if (this.#edited) return false;
    // A bad attribute's message, prerendered: the host is marked as #show marks it.
    this.toggleAttribute('data-error', this.shadowRoot.querySelector('.message') !== null);
    return true;
  }

  /** A figure of a TinyGPT (its training data, its heads): the whole facade. */
  needs() {
    return sourceNeedsModel(this.attr('source', null)) ? 'full' : 'analytic';
  }

  render(lib) {
    // Results are shared by every <tb-number> on the page (errors too), keyed by source and inputs.
    const run = (key, inputs) => {
      const result = cached(JSON.stringify([key, inputs]), () => {
        try {
          return { value: runSource(lib, key, inputs) };
        } catch (err) {
          return { error: err };
        }
      });
      if (result.error) throw result.error;
      return result.value;
    };
    const shown = numberFromAttributes(lib, (name) => this.attr(name, null), run, this.locale, this.t);
    return shown.error ? this.#show(null, shown.error) : this.#show(shown.text);
  }

  #show(text, message) {
    if (message === undefined) {
      this.removeAttribute('data-error');
      this.shadowRoot.replaceChildren(text);
      return;
    }
    // Short in the sentence, whole in the tooltip (and to assistive technology, via the label).
    const span = document.createElement('span');
    span.className = 'message';
    span.textContent = `[${shorten(message)}]`;
    span.title = message;
    this.setAttribute('data-error', '');
    this.shadowRoot.replaceChildren(span);
  }
}

/** The message up to its first explanation: "unknown value path: foo (at …)" -> "unknown value path: foo". */
function shorten(message) {
  const cut = message.search(/ \(|: choose|; /);
  const short = cut > 0 ? message.slice(0, cut) : message;
  return short.length > 90 ? `${short.slice(0, 87)}…` : short;
}

if (defines('tb-number', TbNumber)) customElements.define('tb-number', TbNumber);
