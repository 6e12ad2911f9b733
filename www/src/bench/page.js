// The benchmark page (www/bench.html): times the wasm with ./measure.js and shows a table.
// `window.benchResults` is the promise of the rows (scripts/bench.mjs reads it through Playwright).

import { fullLibrary } from '../wasm.js';
import { measureWasm } from './measure.js';
import { formatInteger } from '../format.js';
import { h } from '../elements/base.js';

const formatDuration = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

const status = document.getElementById('bench-status');
const table = document.getElementById('bench-table');
const quick = new URLSearchParams(location.search).has('quick');

function addRow(row) {
  const num = (text) => h('td', { class: 'num' }, text);
  table.tBodies[0].append(
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, row.name),
      h('td', {}, row.what),
      num(formatDuration(row.ms)),
      num(row.tokens ? formatInteger(Math.round((row.tokens * 1000) / row.ms)) : '—'),
      num(row.flops ? (row.flops / row.ms / 1e6).toFixed(2) : '—'),
    ),
  );
  table.hidden = false;
}

window.benchResults = (async () => {
  try {
    const rows = await measureWasm(await fullLibrary(), { quick, onRow: addRow });
    status.textContent = `Done: ${rows.length} rows${quick ? ' (quick run: few samples, rough)' : ''}.`;
    return { userAgent: navigator.userAgent, quick, rows };
  } catch (err) {
    status.textContent = `The benchmark could not run: ${err.message}`;
    throw err;
  }
})();
