// table-parts.js: read-only queries of one table's DOM (its section bodies, rows, pagination and
// status bodies) and its `list:*` events; holds no state. Layer 2 (Public/js/README.md).
// Imports: markup.js (rowsOf); view-doc.js (types only).

import { rowsOf } from './markup.js';

/** @typedef {import('./view-doc.js').IndexPath} IndexPath */

/** Read-only queries of one table's DOM, and its events. */
export class TableParts {
  /**
   * @param {HTMLTableElement} table
   */
  constructor(table) {
    this.table = table;
  }

  /**
   * @returns {HTMLTableSectionElement[]}
   */
  sectionBodies() {
    return Array.from(this.table.tBodies).filter((b) => b.hasAttribute('data-section'));
  }

  /**
   * @param {?string} key
   */
  sectionBody(key) {
    return key === null ? undefined : this.sectionBodies().find((b) => b.dataset.section === key);
  }

  /**
   * @returns {?HTMLTableSectionElement}
   */
  paginationBody() {
    return this.table.querySelector(':scope > tbody.pagination');
  }

  /**
   * The `<tbody>` showing the list's state or empty text instead of rows, if any.
   * @returns {?HTMLTableSectionElement}
   */
  statusBody() {
    return this.table.querySelector(':scope > tbody:not([data-section]):not(.pagination):not(.list-leave)');
  }

  nextHref() {
    const a = this.paginationBody()?.querySelector('a[rel~="next"]');
    return a ? a.getAttribute('href') : null;
  }

  columnCount() {
    const head = this.table.tHead && this.table.tHead.rows[0];
    return head ? Math.max(1, head.cells.length) : 1;
  }

  /** The row elements of every section, in page order. */
  rows() {
    return this.table.querySelectorAll(':scope > tbody[data-section] > tr[data-row]');
  }

  /** Keys of the rows shown anywhere in the table (leaving rows have none). */
  shownKeys() {
    return new Set(Array.from(this.table.querySelectorAll('tr[data-row]'), (tr) => tr.getAttribute('data-row')));
  }

  /**
   * @param {Element} tr
   * @returns {IndexPath}
   */
  indexPath(tr) {
    const tbody = /** @type {HTMLTableSectionElement} */ (tr.parentElement);
    return { section: this.sectionBodies().indexOf(tbody), row: rowsOf(tbody).indexOf(/** @type {HTMLTableRowElement} */ (tr)) };
  }

  /**
   * @returns {?IndexPath}
   */
  lastRowPath() {
    const rows = this.rows();
    return rows.length ? this.indexPath(rows[rows.length - 1]) : null;
  }

  /**
   * @param {string} key
   */
  rowElement(key) {
    for (const tr of this.rows()) {
      if (tr.getAttribute('data-row') === key) return tr;
    }
    return null;
  }

  /**
   * @param {string} name
   * @param {*} detail
   */
  dispatch(name, detail) {
    this.table.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));
  }

  /**
   * Sets or clears `aria-busy` on the table.
   * @param {boolean} busy
   */
  setBusy(busy) {
    if (busy) this.table.setAttribute('aria-busy', 'true');
    else this.table.removeAttribute('aria-busy');
  }
}
