// The base of every <tb-…> element: a shadow root with the shared theme, one render per batch of
// attribute changes, the wasm module (one instance for the whole page), and an inline message for
// bad attributes that leaves the widget working.
//
//   class TbThing extends TbElement {
//     static observedAttributes = ['model'];
//     static styles = [sheet(`...`)];          // optional, adopted after the theme
//     render(lib) { ... }                      // lib: the wasm facade; throw to show a message
//     release() { ... }                        // optional: free models, workers, observers
//   }
//
// An element moved (taken out and put back in the same task) keeps everything it holds; one that
// stays out of the document is released (release(): wasm objects freed, workers ended, observers
// and listeners removed), and renders afresh if it is put back later.
//
// When an element first shows its content (or its message), it fires `tb-ready` (bubbles, crosses
// shadow roots; detail: { time }, performance.now() then) and resolves `element.rendered`; a page
// waits for all of its widgets with `allRendered()`.
//
// First renders go screen first: a widget within a screen of the viewport renders as soon as the
// page has laid it out; the others follow in the background, in document order, a few milliseconds
// of work per task (render-queue.js), so every widget has rendered long before a reader scrolls
// to it, and a reader's input is never kept waiting behind a page of widgets.

import { library as facade } from '../wasm.js';
import { parseNumberList, parseWhole } from '../attributes.js';
import { themeSheet } from './theme.js';
import { langOf, loadLanguage, onLanguagesChanged, resolveLocale, translator } from '../i18n.js';
import { CLICKABLE, focusedControl, isPrerenderedSheet, pathIn, replay } from './takeover.js';
import { errorText, messageElement } from './dom-parts.js';
import { START, firstRenders, inTurn } from './render-queue.js';
import { hasSettled } from '../settled.js';

export { chartLegend, errorText, h, resultRegion } from './dom-parts.js';

/**
 * How many elements of each tag have been made. An element's uid counts within its tag, so it does
 * not depend on the order the tags were defined in (the folder's autoloader defines each as its
 * module arrives): the same page gives the same ids however it was loaded, and its prerendered
 * markup's.
 */
const made = new Map();

/**
 * The rendered elements, so a change of language reaches them: a `lang` attribute changed anywhere in
 * the document (one MutationObserver for the page) re-renders each element whose language it
 * changes; a language added or changed (addLanguage) re-renders them all.
 */
const speaking = (() => {
  const live = new Set();
  let observer = null;
  const relocalise = () => {
    for (const el of live) if (el.locale !== resolveLocale(langOf(el))) el.update();
  };
  return {
    add(el) {
      live.add(el);
      if (observer || typeof MutationObserver !== 'function') return;
      observer = new MutationObserver(relocalise);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
      onLanguagesChanged(() => live.forEach((e) => e.update()));
    },
    delete(el) {
      live.delete(el);
    },
  };
})();

// Where there is no DOM (Node, where a site's build imports the package to render its pages), the
// class is made on an empty base (and define.js defines nothing): importing any module is harmless.
const ElementBase = globalThis.HTMLElement ?? class {};

/**
 * The base of every <tb-…> element. What it documents here, the manifest gives each element.
 *
 * @fires tb-ready - Once, when the element first shows its content or its message. It bubbles and
 *   crosses shadow roots; detail: { time }, performance.now() then (also the value of `rendered`).
 *
 * @cssprop [--tb-bg=#ffffff] - The widget's background; #1b1e23 in a dark colour scheme.
 * @cssprop [--tb-fg=#1d1f23] - Text; #e6e8ec in a dark colour scheme.
 * @cssprop [--tb-muted=#5b6270] - Secondary text and axis titles; #a3aab6 in a dark colour scheme.
 * @cssprop [--tb-rule=#d9dce2] - Borders, grid lines and table rules; #3a3f4a in a dark colour scheme.
 * @cssprop [--tb-accent=#2557a7] - Focus rings, sliders, cursors and highlights; #8ab4f8 in a dark colour scheme.
 * @cssprop [--tb-error=#a11d1d] - The messages about bad attributes or inputs; #ffb4b4 in a dark colour scheme.
 * @cssprop [--tb-embeddings=#7a5195] - The embeddings in diagrams and bars; #c39bd3 in a dark colour scheme.
 * @cssprop [--tb-attention=#2a78c2] - Attention in diagrams and bars; #7fb8ee in a dark colour scheme.
 * @cssprop [--tb-feed-forward=#d1603d] - The feed-forward network and the experts; #f0a07f in a dark colour scheme.
 * @cssprop [--tb-norms=#6b8f3a] - The norms; #a8cf74 in a dark colour scheme.
 * @cssprop [--tb-output-head=#b8860b] - The output head; #e6c15c in a dark colour scheme.
 * @cssprop [--tb-router=#138a80] - The mixture-of-experts router; #6fd3c8 in a dark colour scheme.
 * @cssprop [--tb-font=system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif] - The text's font.
 * @cssprop [--tb-font-mono=ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace] - The font of code and of numbers in code style.
 * @cssprop [--tb-radius=8px] - The widget's corner radius.
 */
export class TbElement extends ElementBase {
  static styles = [];

  #scheduled = false;
  #messages = [];
  #started = false; // may render: firstRenders reached it
  #released = false; // out of the document past a task: release() ran, the next connection renders
  #held = new Set(); // parts that hear of attribute changes and are released with the element (hold)
  #generation = 0; // counts the renders asked for, so one queued in turn (inTurn) that is stale does nothing
  #facade = null; // { need, library }: the facade this element renders with, kept while its need is the same
  #ready;
  /**
   * True while the element works towards what it will show after its render (the experiments'
   * measurements in the page's worker), so a script or a test can wait for it to settle.
   * @public
   */
  busy = false;
  /**
   * The language the element speaks (i18n.js: its nearest `lang`, resolved to a catalog) and `t`, its
   * texts in it; set before each render. Formatters take `this.locale` as their last argument.
   */
  locale = 'en';
  t = translator('en');

  /** A promise of the time (performance.now()) the element first showed its content or message. @public */
  rendered = new Promise((resolve) => {
    this.#ready = resolve;
  });

  /**
   * True while the shadow root holds the first render the build wrote into the page as declarative
   * shadow DOM (scripts/prerender.mjs): the element shows it as it is until its own first render
   * replaces it, in one task (so nothing moves or flickers), then replays what the reader did in
   * the meantime (see replay).
   */
  prerendered = false;

  /**
   * What the reader did in the prerendered DOM before the element took over, in order: clicks on
   * what can be picked, and input or change events of controls, by their place in the tree
   * (replayed on the live render, which made the same tree).
   */
  #actions = [];

  constructor() {
    super();
    // A declarative shadow root is already there: keep it (attachShadow would empty it).
    if (this.shadowRoot) this.prerendered = this.shadowRoot.childNodes.length > 0;
    else this.attachShadow({ mode: 'open' });
    if (this.prerendered) {
      const note = (event) => {
        if (!this.prerendered || !(event.target instanceof Element)) return;
        const target = event.type === 'click' ? event.target.closest(CLICKABLE) : event.target.closest('input, select, textarea');
        if (!target) return;
        const action = { type: event.type, path: pathIn(this.shadowRoot, target), source: target };
        const last = this.#actions.at(-1);
        if (event.type !== 'click' && last?.type === event.type && last.source === target) this.#actions[this.#actions.length - 1] = action;
        else this.#actions.push(action);
      };
      for (const type of ['click', 'input', 'change']) this.shadowRoot.addEventListener(type, note, true);
    }
    this.shadowRoot.adoptedStyleSheets = [themeSheet(), ...this.constructor.styles];
    made.set(this.localName, (made.get(this.localName) ?? 0) + 1);
    /** A prefix unique to this element, for ids inside its shadow root and for labels. @public */
    this.uid = `${this.localName}-${made.get(this.localName)}`;
  }

  connectedCallback() {
    if (!this.#started) return firstRenders.add(this);
    if (this.#released) {
      this.#released = false;
      this.update();
    }
  }

  disconnectedCallback() {
    if (!this.#started) return firstRenders.delete(this);
    // A move reconnects the element before this microtask runs; an element still out lets go.
    queueMicrotask(() => {
      if (this.isConnected || this.#released) return;
      this.#released = true;
      for (const part of this.#held) part.release?.();
      speaking.delete(this);
      this.release();
    });
  }

  /** Whether the element has been released (out of the document; see release). */
  get released() {
    return this.#released;
  }

  /**
   * Which facade this element renders with (../wasm.js): 'analytic' (the analytic model and the
   * worked examples, the default), 'model' (it reads TinyGPT: the character model and its
   * inspection) or 'full' (it trains, times or experiments, or needs TinyGPT and the analytic model
   * both). The class's static `needs`; an element whose need depends on its attributes overrides
   * this. A class or attributes that make it 'full' are named in WHOLE_FACADE_WIDGETS too
   * (../facade-needs.js).
   */
  needs() {
    return this.constructor.needs ?? 'analytic';
  }

  /**
   * Let go of what the element holds (wasm objects, workers, observers, listeners on shared
   * things), once it has stayed out of the document. Subclasses that hold any override it; when the
   * element is connected again it renders from scratch.
   */
  release() {}

  [START]() {
    this.#started = true;
    this.update();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    firstRenders.changed(this);
    for (const part of this.#held) part.attributeChanged?.(name);
    this.update();
  }

  /**
   * Keep `part` (a ModelChoice, say) with the element: its attributeChanged(name) runs before the
   * re-render an attribute change causes, its release() with the element's. Returns it.
   */
  hold(part) {
    this.#held.add(part);
    return part;
  }

  /** Re-render once, after the current batch of changes (not before its first render's turn). @public */
  update() {
    if (!this.#started || this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(async () => {
      this.#scheduled = false;
      if (!this.isConnected) return;
      this.locale = resolveLocale(langOf(this));
      this.t = translator(this.locale);
      speaking.add(this); // a change of language renders it again, adopted or rendered
      // A prerender the element takes as its own first render: it is live at once, nothing computed.
      if (this.prerendered && this.adoptsPrerendered()) {
        this.prerendered = false;
        // Its styles are the adopted sheets already: the prerender's links to them go, as a render's would.
        for (const node of [...this.shadowRoot.childNodes]) if (isPrerenderedSheet(node)) node.remove();
        this.#actions = [];
        this.#signalReady();
        return;
      }
      // The element's catalog first, if it is one not yet fetched (French, Chinese); a catalog that
      // cannot be fetched leaves English, which is always here.
      const language = loadLanguage(this.locale);
      // The facade of its first render while its need stays (a widget does not move to another
      // wasm instance because a later one arrived), chosen again when its attributes change the need.
      const need = this.needs();
      if (this.#facade?.need !== need) this.#facade = { need, library: facade(need) };
      const { library } = this.#facade;
      // Both looked at (each is watched from now on): a render that waits for a fetch takes its turn.
      const waited = !(hasSettled(language) & hasSettled(library));
      let lib;
      try {
        await language.catch(() => {});
        lib = await library;
      } catch (err) {
        // A prerendered widget keeps its figures and says what is missing above them.
        const message = messageElement(this.t(this.prerendered ? 'base.libraryFailedPrerendered' : 'base.libraryFailed', { error: err.message }));
        if (this.prerendered) {
          this.shadowRoot.querySelector(':scope > .error[data-message]')?.remove();
          this.shadowRoot.prepend(message);
        } else this.shadowRoot.replaceChildren(message);
        this.#signalReady();
        return;
      }
      const generation = ++this.#generation;
      const render = () => {
        // Removed while the library loaded or its turn came, or rendered again since: nothing to do.
        if (!this.isConnected || this.#released || generation !== this.#generation) return;
        this.#renderWith(lib);
      };
      if (waited) inTurn(render);
      else render();
    });
  }

  /**
   * Whether the prerendered first render stays until the element's next update rather than being
   * replaced now: a widget whose model is still loading, which the prerender showed loaded (a real
   * checkpoint), keeps its figures rather than flashing a loading view between them. The reader's
   * clicks and input in it are kept for the render that takes over. Never, unless a widget says.
   */
  keepsPrerendered(lib) {
    return false;
  }

  /**
   * Whether the prerendered first render is the element's own, taken as it is when the element goes
   * live, without the library or a render: what it shows cannot differ from what its first render
   * would make (an inline number whose attributes have not changed since the page was built) and
   * it has nothing to listen to. A widget that says yes sets on itself (the host, which the
   * prerender leaves as the page wrote it) what its render would have. Never, unless a widget says.
   */
  adoptsPrerendered() {
    return false;
  }

  /** The render itself, in one task: the prerendered DOM (if any) replaced, messages, focus, replay. */
  #renderWith(lib) {
    const keep = this.prerendered && this.keepsPrerendered(lib);
    this.#messages = []; // what the question noted, the render notes again
    if (keep) return;
    const focus = focusedControl(this.shadowRoot);
    if (this.prerendered) {
      this.prerendered = false;
      this.shadowRoot.replaceChildren(); // its styles' links too; the render builds the same DOM, in this task
    }
    try {
      this.render(lib);
    } catch (err) {
      this.warn(errorText(err, this.t));
    }
    this.#showMessages();
    focus?.restore();
    // What the reader did in the prerendered DOM did nothing then: it does now, in the same order.
    const actions = this.#actions;
    this.#actions = [];
    for (const action of actions) replay(this.shadowRoot, action);
    this.#signalReady();
  }

  #signalReady() {
    if (!this.#ready) return;
    const time = performance.now();
    this.#ready(time);
    this.#ready = null;
    this.dispatchEvent(new CustomEvent('tb-ready', { bubbles: true, composed: true, detail: { time } }));
  }

  /** Note a problem to show above the widget (an attribute it could not use, say). */
  warn(text) {
    this.#messages.push(text);
  }

  /**
   * Call a wasm function; on error, note the library's message (which says what is allowed) and
   * return `fallback()` instead, so the widget goes on with a default.
   */
  attempt(fn, fallback) {
    try {
      return fn();
    } catch (err) {
      this.warn(errorText(err, this.t));
      return fallback === undefined ? undefined : fallback();
    }
  }

  #showMessages() {
    const root = this.shadowRoot;
    root.querySelectorAll(':scope > .error[data-message]').forEach((el) => el.remove());
    for (const text of [...this.#messages].reverse()) root.prepend(messageElement(text));
  }

  /** The attribute's value, or `fallback` when it is absent or blank. */
  attr(name, fallback) {
    const v = this.getAttribute(name);
    return v === null || v.trim() === '' ? fallback : v.trim();
  }

  /**
   * The attribute as a whole number: `fallback` when it is absent or blank, and when it is not a
   * whole number (noted with warn). Whether the number is in range is the library's call.
   */
  wholeAttr(name, fallback) {
    return this.#noted(parseWhole(name, this.getAttribute(name), fallback, this.t));
  }

  /** The attribute as a list of numbers ("3, 1, 4"): `fallback` when absent, blank or bad (noted). */
  listAttr(name, fallback) {
    return this.#noted(parseNumberList(name, this.getAttribute(name), fallback, this.t));
  }

  #noted({ value, error }) {
    if (error) this.warn(error);
    return value;
  }
}

/**
 * Resolves, with the time (performance.now()) the last of them rendered, once every <tb-…> element
 * now in `root` (a document or element; its light DOM) has shown its content or its message.
 */
export async function allRendered(root = document) {
  await Promise.all([...root.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-')).map((el) => customElements.whenDefined(el.localName)));
  const widgets = [...root.querySelectorAll('*')].filter((el) => el instanceof TbElement);
  const times = await Promise.all(widgets.map((el) => el.rendered));
  return Math.max(0, ...times);
}
