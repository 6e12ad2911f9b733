// Tables that fit a phone: where a table's box is narrower than its columns need (a 360 px screen,
// a narrow column of a course page), each row becomes a card: the row's header on a line of its own,
// then one line per cell, the column's name at the left and the figure at the right. Nothing scrolls
// sideways and every number stays in view. A container query, so it follows the widget's own width.
// One stylesheet for the widgets' tables and the lesson page's own (src/main.js adopts it into the
// document): colours come from the widgets' theme variables, else the page's.
//
//   static styles = [sheet(CSS), tableCardsSheet];
//   h('div', { class: 'scroll cards', ... }, table);   labelCells(table);   // after building it

import { sheet } from './theme.js';

export const TABLE_CARDS_CSS = `
.cards { container-type: inline-size; }
@container (max-width: 34rem) {
  .cards table { min-width: 0; width: 100%; }
  .cards table, .cards tbody, .cards tfoot, .cards tr, .cards th, .cards td { display: block; }
  .cards caption { display: block; }
  .cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .cards tr { padding: 0.35rem 0; border-bottom: 1px solid var(--_rule, var(--rule)); }
  .cards th[scope="row"], .cards tbody th, .cards tfoot th { min-width: 0; padding: 0.1rem 0; font-weight: 600; white-space: normal; }
  .cards td { padding: 0.05rem 0 0.05rem 1rem; border: 0; white-space: normal; text-align: right; }
  .cards td::after { content: ""; display: table; clear: both; }
  .cards td::before { content: attr(data-label); float: left; margin-right: 0.75rem; color: var(--_muted, var(--muted)); font-size: 0.85rem; font-family: var(--_font, var(--font-body)); font-weight: normal; text-align: left; }
  .cards td:empty, .cards td[data-label=""] { display: none; }
  .cards td.formula { overflow-wrap: anywhere; }
}
`;

export const tableCardsSheet = sheet(TABLE_CARDS_CSS);

/** Gives each body and footer cell its column's name (data-label), for the card layout. */
export function labelCells(table) {
  // A section's rows as its <tr> children (what .rows is, and what Node's DOM for the renderer has).
  const rowsOf = (section) => [...(section?.children ?? [])].filter((row) => row.localName === 'tr');
  const names = [...(rowsOf(table.tHead)[0]?.cells ?? [])].map((th) => th.textContent.trim());
  for (const section of [...table.tBodies, table.tFoot].filter(Boolean)) {
    for (const row of rowsOf(section)) {
      let column = 0;
      for (const cell of row.cells) {
        if (cell.localName === 'td') cell.dataset.label = names[column] ?? '';
        column += cell.colSpan || 1;
      }
    }
  }
  return table;
}
