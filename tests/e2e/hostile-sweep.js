// The hostile-value sweep that hostile.spec.js runs inside the page: every value below set on every
// observed attribute of a widget, and typed into every field of it, one at a time; after each, what
// the widget shows is read back, and once the sane value is back, the widget must show what it
// showed before. The functions run in the browser (page.evaluate), so they use nothing from here.

/** What a careless or malicious author writes, or a reader types. */
export const HOSTILE_VALUES = [
  '',
  '   ',
  '-1',
  '0',
  '1e308',
  'NaN',
  'Infinity',
  '-Infinity',
  '123456789012345678901',
  '0.5',
  '2.5',
  'ünïcødé ✓ 😀 ‮',
  '<img src=x onerror="window.__pwned = (window.__pwned || 0) + 1">',
  '"><script>window.__pwned = (window.__pwned || 0) + 1</script>',
  'x'.repeat(10_000),
];

// A message names what is allowed: a range, a list, a kind of value or a default it fell back to.
const ENGLISH =
  /\b(give|allowed|accepts|one of|between|\d to [\d-]|up to|at least|at most|must|a whole number|a number|choose|pick|using|the default|supported|expected|try|write)\b/i;
/** The same, per language (a library message a catalog cannot word whole stays English). */
export const SAYS_WHAT_IS_ALLOWED = {
  en: ENGLISH,
  fr: new RegExp(
    `${ENGLISH.source}|donnez|permises?|accepte|l’une? de|parmi|entre|de [\\d\u202f]+ à|jusqu’à|au moins|au plus|doit|il faut|nombre entier|un nombre|choisissez|utilisée?|par défaut|prise? en charge|attendu|essayez|écrivez|tapez|gardez|entraînez|chronométrez`,
    'i',
  ),
  'zh-CN': new RegExp(`${ENGLISH.source}|请|允许|接受|必须|整数|数字|默认|改用|支持|范围|至多|至少|选择|可选`, 'i'),
};

/**
 * In the page: sweeps `values` over the element `selector` (its attributes, or its fields when
 * `what` is 'fields'). Returns one record per value set: { target, value, messages, longest,
 * injected, restored, before, after } (see below), plus the element's tag.
 */
export async function sweepInPage({ selector, values, what }) {
  const el = document.querySelector(selector);
  await el.rendered;

  // What the widget shows: its text, the values of its fields and which messages are visible.
  const visible = (node) => !node.hidden && node.closest('[hidden]') === null && node.getClientRects().length > 0;
  const snapshot = () => {
    const root = el.shadowRoot;
    const fields = [...root.querySelectorAll('input, select, textarea')].map((f) => `${f.id || f.name}=${f.value}`);
    return `${root.textContent.replace(/\s+/g, ' ').trim()} | ${fields.join(' ')}`;
  };
  // Each visible message: the text shown, and the whole of it (a message shortened to fit a
  // sentence, tb-number's, carries the rest in its title).
  const clean = (t) => t.replace(/\s+/g, ' ').trim();
  const messages = () =>
    [...el.shadowRoot.querySelectorAll('.error, .message, [role="alert"]')]
      .filter((m) => visible(m) && m.textContent.trim() !== '')
      .map((m) => ({ shown: clean(m.textContent), whole: clean(m.title || m.textContent) }));
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  // Waits until two reads a frame apart agree and the widget is not busy (a render is a microtask
  // after the change; the experiments measure in a worker), at most `ms`.
  const settle = async (ms = 2_000) => {
    const until = performance.now() + ms;
    let last = snapshot();
    for (;;) {
      await frame();
      const now = snapshot();
      // A widget still measuring (el.busy: the experiments, in the page's worker) has more to show.
      if ((now === last && !el.busy) || performance.now() > until) return now;
      last = now;
    }
  };
  // Waits until the widget shows `want` again, at most `ms`; returns what it shows.
  const backTo = async (want, ms = 5_000) => {
    const until = performance.now() + ms;
    for (;;) {
      const now = snapshot();
      if (now === want || performance.now() > until) return now;
      await frame();
    }
  };
  const injected = () => window.__pwned ?? 0;
  // Markup in a value must stay text: no element the value could have made.
  const madeElements = () => el.shadowRoot.querySelectorAll('img[src="x"], script').length;

  // What a field holds after a reader types `v`: a number or range field keeps only a number (the
  // HTML grammar of one), anything else leaves it empty, as the browser does with keystrokes.
  const FLOAT = /^-?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/;
  const typed = (f, v) => ((f.type === 'number' || f.type === 'range') && !FLOAT.test(v) ? '' : v);

  const records = [];
  const baseline = await settle();

  const targets =
    what === 'fields'
      ? [...el.shadowRoot.querySelectorAll('input:not([type=checkbox]):not([type=radio]), textarea')]
          .filter((f) => !f.disabled && visible(f))
          .map((f) => ({
            name: `field ${f.id || f.name || f.type}${f.labels?.[0] ? ` (${f.labels[0].textContent.trim()})` : ''}`,
            set: (v) => {
              f.focus();
              f.value = typed(f, v);
              f.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
              f.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
            },
            sane: f.value,
          }))
      : (el.constructor.observedAttributes ?? []).map((name) => ({
          name: `attribute ${name}`,
          set: (v) => (v === null ? el.removeAttribute(name) : el.setAttribute(name, v)),
          sane: el.getAttribute(name),
        }));

  // A reader's keyboard focus, on the widget's first field, survives an author changing an
  // attribute: the widget re-renders around it (if the field is still there, it keeps the focus).
  const firstField = () => el.shadowRoot.querySelector('input[id], select[id], textarea[id]');
  const focusId = what === 'attributes' ? firstField()?.id : undefined;
  const focusKept = () => {
    if (!focusId) return true;
    const field = el.shadowRoot.getElementById(focusId);
    return !field || !visible(field) || (el.shadowRoot.activeElement === field && document.activeElement === el);
  };

  for (const target of targets) {
    for (const value of values) {
      if (focusId) el.shadowRoot.getElementById(focusId)?.focus();
      target.set(value);
      await settle();
      const shown = messages();
      const record = {
        target: target.name,
        value: value.length > 30 ? `${value.slice(0, 20)}… (${value.length} characters)` : value,
        messages: shown.map((m) => m.whole),
        longest: Math.max(0, ...shown.map((m) => m.shown.length)),
        longestWhole: Math.max(0, ...shown.map((m) => m.whole.length)),
        width: el.getBoundingClientRect().width,
        injected: injected() + madeElements(),
        focusKept: focusKept(),
      };
      target.set(target.sane);
      const after = await backTo(baseline);
      record.restored = after === baseline;
      if (!record.restored) Object.assign(record, { before: baseline.slice(0, 400), after: after.slice(0, 400) });
      records.push(record);
    }
  }
  return { tag: el.localName, targets: targets.map((t) => t.name), records };
}
