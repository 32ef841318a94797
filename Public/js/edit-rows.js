// edit-rows.js: the DOM side of the page's editing mode (edit-mode.js): the controls it adds to
// a table (a controls column with a drag handle and Move up, Move down and Delete buttons per row,
// an Add row button per section, messages beside rows), taking them away again, dragging a row by
// its handle with Pointer Events (mouse, pen and touch alike), and the row queries both use.
// Layer 1 (Public/js/README.md). Imports nothing.

/** @typedef {{key: string, kind: string}} EditColumn */
/**
 * Where a row goes: `{before: KEY}`, `{after: KEY}` or `{section: KEY}`.
 * @typedef {{before?: string, after?: string, section?: string}} Place
 */

/** The controls editing mode adds to one table. */
export class EditControls {
  /**
   * @param {HTMLTableElement} table
   * @param {EditColumn[]} columns the table's columns, in cell order
   * @param {string} hintID the id of the text that says how to edit a cell
   * @param {function(): boolean} movable whether rows may move (not in a sorted or filtered view)
   */
  constructor(table, columns, hintID, movable) {
    this.table = table;
    this.columns = columns;
    this.hintID = hintID;
    this.movable = movable;
  }

  /** The number of columns the rows' cells span (the controls column comes after them). */
  get span() {
    return this.columns.length || (this.table.tHead && this.table.tHead.rows[0] ? this.table.tHead.rows[0].cells.length : 1);
  }

  /**
   * Adds whatever controls are missing, and the messages beside their rows: idempotent, so it
   * may run after any change of the table.
   * @param {Map<string, string>} errors messages by row key, or `§` + section key
   */
  decorate(errors) {
    const t = this.table;
    const head = t.tHead && t.tHead.rows[0];
    if (head && !head.querySelector(':scope > th.edit-head')) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.className = 'edit-head';
      th.innerHTML = '<span class="visually-hidden">Row actions</span>';
      head.append(th);
    }
    for (const cell of t.querySelectorAll(':scope > tbody > tr > [colspan]')) {
      const c = /** @type {HTMLTableCellElement} */ (cell);
      if (c.colSpan === this.span) { c.dataset.editColspan = String(c.colSpan); c.colSpan = this.span + 1; }
    }
    for (const tbody of t.querySelectorAll(':scope > tbody[data-section]')) {
      const body = /** @type {HTMLTableSectionElement} */ (tbody);
      for (const tr of body.querySelectorAll(':scope > tr[data-row]')) this.decorateRow(/** @type {HTMLTableRowElement} */ (tr));
      this.decorateSection(body, errors);
    }
  }

  /**
   * @param {HTMLTableRowElement} tr
   */
  decorateRow(tr) {
    const last = tr.lastElementChild;
    if (last && last.classList.contains('edit-controls')) return;
    const name = rowName(tr);
    Array.from(tr.cells).forEach((td, i) => {
      const column = this.columns[i];
      if (!column || (column.kind !== 'text' && column.kind !== 'number')) return;
      td.classList.add('edit-cell');
      td.tabIndex = 0;
      td.setAttribute('aria-describedby', this.hintID);
    });
    const td = document.createElement('td');
    td.className = 'edit-controls';
    if (this.movable()) {
      const handle = document.createElement('span');
      handle.className = 'edit-handle';
      handle.setAttribute('aria-hidden', 'true');
      handle.textContent = '\u2630';
      td.append(handle, iconButton('\u2191', `Move up ${name}`, 'up'), iconButton('\u2193', `Move down ${name}`, 'down'));
    }
    td.append(iconButton('\u2715', `Delete ${name}`, 'delete'));
    tr.append(td);
  }

  /**
   * The section's Add row button (before its footer) and the messages beside its rows.
   * @param {HTMLTableSectionElement} tbody
   * @param {Map<string, string>} errors
   */
  decorateSection(tbody, errors) {
    let add = /** @type {?HTMLTableRowElement} */ (tbody.querySelector(':scope > tr.edit-add'));
    if (!add) {
      add = document.createElement('tr');
      add.className = 'edit-add';
      const td = add.insertCell();
      td.colSpan = this.span + 1;
      const header = tbody.querySelector(':scope > tr.section-header');
      const label = header && header.textContent ? `Add row to ${header.textContent.trim()}` : 'Add row';
      const b = button('Add row', 'add', null);
      b.setAttribute('aria-label', label);
      td.append(b);
    }
    const footer = tbody.querySelector(':scope > tr.section-footer');
    if (footer ? add.nextElementSibling !== footer : tbody.lastElementChild !== add) tbody.insertBefore(add, footer);
    for (const tr of Array.from(tbody.rows)) {
      const key = tr.dataset.errorFor;
      if (key !== undefined && !errors.has(key)) tr.remove();
    }
    for (const [key, message] of errors) {
      const anchor = key.startsWith('\u00a7') ? (tbody.dataset.section === key.slice(1) ? add : null) : rowIn(tbody, key);
      if (!anchor) continue;
      const shown = Array.from(tbody.rows).find((r) => r.dataset.errorFor === key);
      const wanted = key.startsWith('\u00a7') ? anchor.previousElementSibling : anchor.nextElementSibling;
      if (shown && shown === wanted) continue;
      if (shown) shown.remove();
      const tr = this.errorRow(key, message);
      key.startsWith('\u00a7') ? tbody.insertBefore(tr, anchor) : anchor.after(tr);
    }
  }

  /**
   * @param {string} key
   * @param {string} message
   */
  errorRow(key, message) {
    const tr = document.createElement('tr');
    tr.className = 'edit-error';
    tr.dataset.errorFor = key;
    const td = tr.insertCell();
    td.colSpan = this.span + 1;
    const text = document.createElement('span');
    text.textContent = message;
    td.append(text, button('Dismiss', 'dismiss', null));
    return tr;
  }

  /** Takes every control away (editing off). */
  undecorate() {
    const t = this.table;
    t.querySelectorAll('.edit-head, td.edit-controls, tr.edit-add, tr.edit-error, tr.edit-placeholder').forEach((el) => el.remove());
    for (const td of t.querySelectorAll('td.edit-cell')) {
      td.classList.remove('edit-cell');
      td.removeAttribute('tabindex');
      td.removeAttribute('aria-describedby');
    }
    for (const cell of t.querySelectorAll('[data-edit-colspan]')) {
      const c = /** @type {HTMLTableCellElement} */ (cell);
      c.colSpan = Number(c.dataset.editColspan);
      delete c.dataset.editColspan;
    }
  }

  /** The column titles, in order. */
  titles() {
    const head = this.table.tHead && this.table.tHead.rows[0];
    return head ? Array.from(head.cells, (c) => (c.textContent || '').trim()) : [];
  }
}

/** Dragging a row by its handle to another place; `drop` gets the row and where it should go. */
export class RowDrag {
  /**
   * @param {HTMLTableElement} table
   * @param {function(): boolean} enabled whether dragging is allowed now (editing mode)
   * @param {function(HTMLTableRowElement, Place): void} drop
   */
  constructor(table, enabled, drop) {
    this.table = table;
    this.enabled = enabled;
    this.drop = drop;
    /** @type {?{tr: HTMLTableRowElement, handle: Element, pointer: number, target: ?HTMLTableRowElement, place: ?Place, side: string}} */
    this.drag = null;
    table.addEventListener('pointerdown', (e) => this.start(e));
    table.addEventListener('pointermove', (e) => this.move(e));
    table.addEventListener('pointerup', (e) => this.end(e, true));
    table.addEventListener('pointercancel', (e) => this.end(e, false));
  }

  /**
   * @param {PointerEvent} e
   */
  start(e) {
    const handle = /** @type {Element} */ (e.target).closest('.edit-handle');
    if (!handle || !this.enabled() || e.button !== 0) return;
    const tr = /** @type {HTMLTableRowElement} */ (handle.closest('tr[data-row]'));
    e.preventDefault();
    try { /** @type {HTMLElement} */ (handle).setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
    this.drag = { tr, handle, pointer: e.pointerId, target: null, place: null, side: '' };
    tr.classList.add('edit-dragging');
  }

  /**
   * Marks where the row would land: before or after the row under the pointer, or at the end
   * of the section whose header, footer or Add row is under it.
   * @param {PointerEvent} e
   */
  move(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    e.preventDefault();
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const over = /** @type {?HTMLTableRowElement} */ (hit && hit.closest('table.list > tbody > tr'));
    if (drag.target) drag.target.classList.remove('edit-drop-before', 'edit-drop-after');
    drag.target = null;
    drag.place = null;
    if (!over || over === drag.tr || !this.table.contains(over)) return;
    const body = /** @type {HTMLTableSectionElement} */ (over.parentElement);
    if (!body.hasAttribute('data-section')) return;
    const key = over.getAttribute('data-row');
    if (key !== null) {
      const box = over.getBoundingClientRect();
      const before = e.clientY < box.top + box.height / 2;
      drag.place = before ? { before: key } : { after: key };
      drag.side = before ? 'edit-drop-before' : 'edit-drop-after';
    } else {
      const rows = body.querySelectorAll(':scope > tr[data-row]');
      const first = over.classList.contains('section-header');
      const edge = first ? rows[0] : rows[rows.length - 1];
      drag.place = edge ? (first ? { before: edge.getAttribute('data-row') || '' } : { after: edge.getAttribute('data-row') || '' })
        : { section: body.dataset.section || '' };
      drag.side = first ? 'edit-drop-after' : 'edit-drop-before';
    }
    drag.target = over;
    over.classList.add(drag.side);
  }

  /**
   * Drops the row (or, cancelled, leaves it where it was).
   * @param {PointerEvent} e
   * @param {boolean} drop
   */
  end(e, drop) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    this.drag = null;
    drag.tr.classList.remove('edit-dragging');
    if (drag.target) drag.target.classList.remove('edit-drop-before', 'edit-drop-after');
    const place = drag.place;
    if (!drop || !place || samePlace(drag.tr, place)) return;
    this.drop(drag.tr, place);
  }
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers

/**
 * A `<button type="button">` with `text`; `control` names it for the click handler (or `action`).
 * @param {string} text
 * @param {string} control
 * @param {?function(): void} action
 */
export function button(text, control, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'edit-button';
  b.textContent = text;
  if (action) { b.className += ' ' + control; b.addEventListener('click', action); } else b.dataset.editControl = control;
  return b;
}

/**
 * A row's icon button whose accessible name is `label`.
 * @param {string} icon
 * @param {string} label
 * @param {string} control
 */
export function iconButton(icon, label, control) {
  const b = button(icon, control, null);
  b.classList.add('edit-icon');
  b.setAttribute('aria-label', label);
  b.title = label;
  return b;
}

/**
 * The row's name for labels and messages: its first cell's text, else its key.
 * @param {HTMLTableRowElement} tr
 */
export function rowName(tr) {
  const text = tr.cells[0] ? (tr.cells[0].textContent || '').trim() : '';
  return text || `row ${tr.getAttribute('data-row')}`;
}

/**
 * The row with key `key` under `root` (keys may hold any character: compared, not selected).
 * @param {ParentNode} root
 * @param {string} key
 * @returns {?HTMLTableRowElement}
 */
export function rowIn(root, key) {
  for (const tr of root.querySelectorAll('tr[data-row]')) if (tr.getAttribute('data-row') === key) return /** @type {HTMLTableRowElement} */ (tr);
  return null;
}

/**
 * The row before (-1) or after (1) `tr` in its section, or null.
 * @param {HTMLTableRowElement} tr
 * @param {number} delta
 * @returns {?HTMLTableRowElement}
 */
export function siblingRow(tr, delta) {
  let el = delta < 0 ? tr.previousElementSibling : tr.nextElementSibling;
  while (el && !el.hasAttribute('data-row')) el = delta < 0 ? el.previousElementSibling : el.nextElementSibling;
  return /** @type {?HTMLTableRowElement} */ (el);
}

/**
 * Where a row is now, as a move would name it: after its previous row, before its next, or in
 * its (otherwise empty) section.
 * @param {HTMLTableRowElement} tr
 * @returns {Place}
 */
export function placeOf(tr) {
  const previous = siblingRow(tr, -1);
  if (previous) return { after: previous.getAttribute('data-row') || '' };
  const next = siblingRow(tr, 1);
  if (next) return { before: next.getAttribute('data-row') || '' };
  return { section: /** @type {HTMLElement} */ (tr.parentElement).dataset.section || '' };
}

/**
 * Whether `place` is where the row already is.
 * @param {HTMLTableRowElement} tr
 * @param {Place} place
 */
export function samePlace(tr, place) {
  const key = place.before ?? place.after;
  if (key === undefined) return false;
  const here = placeOf(tr);
  const previous = siblingRow(tr, -1);
  const next = siblingRow(tr, 1);
  return (here.after !== undefined && here.after === place.after) || (place.before !== undefined && next !== null && next.getAttribute('data-row') === place.before)
    || (place.after !== undefined && previous !== null && previous.getAttribute('data-row') === place.after);
}

