// Which build of the wasm a page's widgets fetch, told from the page's markup alone: what wasm.js's
// library(need) fetches when the widgets render, and what the folder's autoloader asks for early
// (www/src/autoloader.js), before the widgets' modules have arrived.
//
//   pageFacades(document, (el) => 'analytic')   // Set { 'analytic' }: the builds first fetched
//
// A widget needs 'analytic' (the analytic model, the worked examples), 'model' (TinyGPT read and
// looked inside) or 'full' (it trains, times or experiments, or needs TinyGPT and the analytic model
// both): its class's static `needs`, or its attributes (base.js: needs()).

/**
 * The widgets that ask for the whole facade: by their class, or by their attributes (anatomy of
 * TinyGPT; a number whose source runs TinyGPT, lesson-values.js: SOURCES). A widget that only reads
 * TinyGPT takes the whole facade too when one of these is on the page, so TinyGPT is never fetched
 * twice. tests/unit/facades.test.js keeps this list and the classes agreeing.
 */
export const WHOLE_FACADE_WIDGETS = [
  'tb-train',
  'tb-ablation',
  'tb-stream',
  'tb-norm-race',
  'tb-depth-latency',
  'tb-anatomy[model="tiny-gpt"]',
  ...['training-data', 'shipped-model-six', 'shipped-model', 'heads', 'heads-six', 'heads-untrained'].map((s) => `tb-number[source="${s}"]`),
].join(', ');

/** The build `need` is served by on a page whose markup is `root`: the whole facade where it is coming. */
export function facadeFor(need, root) {
  return need === 'model' && root?.querySelector(WHOLE_FACADE_WIDGETS) ? 'full' : need;
}

/**
 * Whether a widget renders after the others on its page (render-queue.js): a prerendered one that
 * runs TinyGPT shows its figures already, so the whole facade is fetched once the others are live.
 */
export const rendersLast = (need, prerendered) => prerendered && need !== 'analytic';

/**
 * The builds a page fetches for its first renders: each widget's need (`needOf(el)`: its class's,
 * or 'full' where WHOLE_FACADE_WIDGETS names it), served as facadeFor says. A prerendered widget
 * that runs TinyGPT shows its figures already and renders after the others (render-queue.js), so
 * where the page has others, the whole facade it fetches is not among the first.
 */
export function pageFacades(root, needOf) {
  const widgets = [];
  for (const el of root.querySelectorAll('*')) {
    if (!el.localName.startsWith('tb-')) continue;
    const need = el.matches(WHOLE_FACADE_WIDGETS) ? 'full' : needOf(el);
    if (need) widgets.push({ need, later: rendersLast(need, el.shadowRoot?.childNodes.length > 0) });
  }
  const first = widgets.some((w) => !w.later) ? widgets.filter((w) => !w.later) : widgets;
  return new Set(first.map((w) => facadeFor(w.need, root)));
}
