// The small DOM parts every widget builds with: h() (createElement with properties and children),
// a chart's legend, the region that shows a result or a problem, a message line,
// and errorText (a caught error worded for the reader).

import { translator } from '../i18n.js';
import { errorText } from '../library-messages.js';

export { errorText };

/**
 * A chart's legend: `[[swatchClass, text], …]`, one item each (a swatch of that class, then the
 * text); a null class gives a line of text alone.
 */
export function chartLegend(entries, t = translator('en')) {
  return h(
    'ul',
    { class: 'legend', 'aria-label': t('base.legend') },
    entries.map(([swatch, text]) => h('li', {}, swatch ? h('span', { class: `swatch ${swatch}`, 'aria-hidden': 'true' }) : null, text)),
  );
}

/**
 * Where a widget shows what it computed from the reader's input: a line for a problem (an alert,
 * hidden until there is one) and an output region, announced politely, that only the result
 * rebuilds (so the field being typed in keeps its focus). The caller places `error` and `output`.
 *
 *   const region = resultRegion();
 *   region.show(() => lib.example_x(values), (result) => [nodes...]);   // either may throw
 *   region.fail('Seed: type a whole number');                           // a problem found before
 *
 * show: runs compute(), then render(result) (a node or an array of nodes; when they are the nodes
 * already there, updated in place, they stay); if either throws (the library refusing the input,
 * or a number a formatter cannot show), fail(its message). Else hides the problem and shows the
 * output. Returns true if it showed.
 * fail: shows `text` as the problem and hides the output: a result never stands beside input it
 * was not computed from. Returns false.
 * Options: outputClass (default "output"); t, the element's translator, to word the library's
 * messages in the reader's language.
 */
export function resultRegion({ outputClass = 'output', t } = {}) {
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const output = h('div', { class: outputClass, 'aria-live': 'polite' });
  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
    output.hidden = true;
    return false;
  };
  const show = (compute, render) => {
    let nodes;
    try {
      nodes = [render(compute())].flat();
    } catch (err) {
      return fail(errorText(err, t));
    }
    error.hidden = true;
    error.textContent = '';
    output.hidden = false;
    // A view that updates its own nodes in place returns the same ones: leave them where they are.
    const kept = nodes.length === output.childNodes.length && nodes.every((node, i) => output.childNodes[i] === node);
    if (!kept) output.replaceChildren(...nodes);
    return true;
  };
  return { error, output, show, fail };
}

export function messageElement(text) {
  const p = document.createElement('p');
  p.className = 'error';
  p.dataset.message = '';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  return p;
}

/** document.createElement with properties and children, so widgets build DOM without innerHTML. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key in el && !key.includes('-')) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}
