// The hand-written part of the npm package's types: the module-level API of www/src/entry-module.js.
// `make dist` writes dist/npm/index.d.ts as this file followed by what it generates
// (scripts/dist/types.mjs): a class per element with its summary and attributes, from
// custom-elements.json; HTMLElementTagNameMap; and CatalogKey, the English catalog's keys. So this
// file is a fragment: CatalogKey and the element classes are declared by the generated part. Its
// leading comment lines (these) are left out of index.d.ts.

/**
 * The base of every element: an open shadow root with the shared theme, themed by the --tb-* CSS
 * custom properties (custom-elements.json lists them with their defaults). It fires `tb-ready` once,
 * when it first shows its content or its message (bubbling, composed; detail: { time }).
 */
export declare class TbElement extends HTMLElement {
  static observedAttributes: string[];
  /** A prefix unique to this element, for ids inside its shadow root. */
  readonly uid: string;
  readonly shadowRoot: ShadowRoot;
  connectedCallback(): void;
  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void;
  /** Re-render once, after the current batch of attribute changes. */
  update(): void;
  /** True while the element works towards what it will show (the experiments measuring in the page's worker). */
  readonly busy: boolean;
  /** Resolves with the time (performance.now()) the element first showed its content or message; it then fires `tb-ready`. */
  readonly rendered: Promise<number>;
}

/** Resolves, with the time the last of them rendered, once every <tb-…> element now in `root` shows its content. */
export declare function allRendered(root?: Document | Element): Promise<number>;

/**
 * The WebAssembly facade, instantiated once per page and shared by every element: the functions of
 * crate/src/web/ (presets, count, cost_curve, example_…), returning plain objects. A function
 * throws an Error whose message says what was wrong and what is allowed.
 */
export interface TransformerBlockLibrary {
  presets(): Array<{ name: string; label: string; [field: string]: unknown }>;
  count(model: string, seq_len: number, batch: number): { total_params: number; [field: string]: unknown };
  [fn: string]: unknown;
}

/** A text: a string with {value} placeholders, or a plural chosen by Intl.PluralRules on the value `count`. */
export type CatalogText = string | { other: string; zero?: string; one?: string; two?: string; few?: string; many?: string };

/**
 * Add a language the widgets speak (a BCP 47 tag such as "de" or "pt-BR"), or override texts of one
 * they speak already ("fr", "zh-CN", "en"). A key the catalog lacks falls back to English. Widgets
 * speak the `lang` of their nearest ancestor; those on the page render again. Throws a TypeError
 * naming a bad tag or a key that is not in the English catalog.
 */
export declare function addLanguage(tag: string, catalog: Partial<Record<CatalogKey, CatalogText>>): void;

/** The languages the widgets speak: English, French, Simplified Chinese, and any added. */
export declare function languages(): string[];

/** Resolves when the wasm is instantiated (rejects, with a message, when it cannot be). */
export declare const wasm: Promise<TransformerBlockLibrary>;

/** The compiled WebAssembly.Module, for a worker of the page's own (the training worker uses it). */
export declare const wasmModule: Promise<WebAssembly.Module>;
