// <tb-example name="layernorm">: one of the lessons' worked examples, run live in the wasm. The
// defaults are the lessons' own inputs (example_defaults); the reader edits them and the result and
// every intermediate step recompute as they type. One renderer a file under ./examples/; the
// registry below maps each name to its renderer.
//
//   renderer = { title, intro, render({ lib, defaults, uid, t }) -> Node }
//
// title and intro are keys of the catalogs (locales/*/examples.js); t is the element's translator,
// which the renderer words every text with and whose locale (t.locale) formats every number.

import { TbElement, h } from './base.js';
import { defines } from './define.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { masksSheet } from './masks.js';
import residual from './examples/residual.js';
import layernorm from './examples/layernorm.js';
import gelu from './examples/gelu.js';
import feedForward from './examples/feed-forward.js';
import tinyGpt from './examples/tiny-gpt.js';
import tiedOutput from './examples/tied-output.js';
import masks from './examples/masks.js';
import paramCount from './examples/param-count.js';
import moe from './examples/moe.js';
import balanceLoss from './examples/balance-loss.js';
import flops from './examples/flops.js';
import { speakEnglish } from '../i18n.js';
import examplesTexts from '../locales/en/examples.js';

speakEnglish(examplesTexts);

/** The examples by name, in the lessons' order. */
export const EXAMPLES = {
  residual,
  layernorm,
  gelu,
  'feed-forward': feedForward,
  'tiny-gpt': tinyGpt,
  'tied-output': tiedOutput,
  masks,
  'param-count': paramCount,
  moe,
  'balance-loss': balanceLoss,
  flops,
};

export const EXAMPLE_NAMES = Object.keys(EXAMPLES);

const DEFAULT_NAME = 'residual';

const CSS = `
.intro { color: var(--_muted); }
fieldset.fields { border: 0; padding: 0; margin: 0 0 0.5rem; display: grid; gap: 0.4rem; min-width: 0; }
fieldset.fields legend { padding: 0; font-weight: 600; margin-bottom: 0.25rem; }
.field { display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: center; }
.field label { flex: 0 1 auto; }
.field input[type="text"] { flex: 1 1 10rem; min-width: 0; max-width: 100%; font-family: var(--_mono); }
.field input[type="number"] { width: 9rem; max-width: 100%; }
.steps { margin: 0.25rem 0; padding-left: 1.5rem; }
.steps li { margin: 0.15rem 0; }
.steps .value, .result .value, td.value { font-family: var(--_mono); font-weight: 600; }
.parts { display: grid; gap: 1rem; }
.part { min-width: 0; }
.parts > .part + .part { border-top: 1px solid var(--_rule); padding-top: 0.75rem; }
table.pairs { width: auto; min-width: 12rem; }
`;

/**
 * @summary One of the lessons' worked examples, run live: the reader edits its inputs and the
 *   result and every step recompute.
 *
 * @attr {'residual' | 'layernorm' | 'gelu' | 'feed-forward' | 'tiny-gpt' | 'tied-output' | 'masks' | 'param-count' | 'moe' | 'balance-loss' | 'flops'} [name=residual]
 *   - Which example; missing or unknown, residual is shown with a message naming the choices.
 */
class TbExample extends TbElement {
  static observedAttributes = ['name'];
  static styles = [sheet(CSS), masksSheet];

  render(lib) {
    const asked = this.attr('name', null);
    let name = asked;
    const t = this.t;
    if (!Object.hasOwn(EXAMPLES, name ?? '')) {
      const allowed = EXAMPLE_NAMES.join(', ');
      this.warn(
        asked === null
          ? t('example.needsName', { allowed, fallback: DEFAULT_NAME })
          : t('example.unknown', { name: clipText(asked), allowed, fallback: DEFAULT_NAME }),
      );
      name = DEFAULT_NAME;
    }
    const example = EXAMPLES[name];
    const defaults = lib.example_defaults();
    const headingId = `${this.uid}-title`;
    this.shadowRoot.replaceChildren(
      h(
        'div',
        { role: 'group', 'aria-labelledby': headingId, dataset: { example: name } },
        h('h3', { id: headingId }, t(example.title)),
        h('p', { class: 'intro' }, t(example.intro)),
        example.render({ lib, defaults, uid: this.uid, t }),
      ),
    );
  }
}

if (defines('tb-example', TbExample)) customElements.define('tb-example', TbExample);
