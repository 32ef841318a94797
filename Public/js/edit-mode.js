// edit-mode.js: the page's editing mode (API.md section 10, docs/CLIENT.md "Editing"), offered only
// when the server marked the table `data-editable="true"` (the reader may write). An Edit button
// switches it on: per row Move up, Move down and Delete buttons and a drag handle (Pointer Events),
// per section an Add row button, cells edited in place (Enter or double click), undo (a button and
// Ctrl+Z / Cmd+Z outside a field). Each edit shows at once as a pending overlay and is sent with
// the row's `data-version` in `If-Match`; the stream's patch is the truth (this module never marks
// an edit as done: the patched row simply replaces the pending one); a refused edit puts the row
// back and says why beside it. Controls are re-added to rows the stream replaces (a MutationObserver).
// The controls themselves and dragging are edit-rows.js's; the writes and undo edit-writes.js's.
// Layer 3 (Public/js/README.md). Imports: edit-rows.js, edit-writes.js; rows.js (types only).

import { EditControls, RowDrag, placeOf, rowIn, rowName, siblingRow } from './edit-rows.js';
import { RowWrites, UndoHistory, describeRow } from './edit-writes.js';

/** @typedef {import('./rows.js').Announcer} Announcer */
/** @typedef {import('./edit-rows.js').EditColumn} EditColumn */
/** @typedef {import('./edit-rows.js').Place} Place */
/** @typedef {import('./edit-writes.js').Outcome} Outcome */
/**
 * What the page gives the editing mode: the list's URL, the edit link's key, the announcer, and
 * whether a view (sort, search, filters) is shown, whose order rows cannot be moved in.
 * @typedef {{base: string, key: ?string, announcer: Announcer, inView: () => boolean}} EditHost
 */
/** @typedef {{tr: HTMLTableRowElement, td: HTMLTableCellElement, row: string, index: number, column: EditColumn, version: string, old: *, markup: string, input: HTMLInputElement, done: boolean}} CellEditor */

let instances = 0;

/** Whether `el` is a field where Ctrl+Z belongs to the field. */
const isField = (/** @type {*} */ el) => !!el && el instanceof Element && !!el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]');

/** The editing mode of one table. */
export class EditMode {
  /**
   * @param {HTMLTableElement} table
   * @param {EditHost} host
   */
  constructor(table, host) {
    this.table = table;
    this.announcer = host.announcer;
    /** @type {EditColumn[]} */
    this.columns = [];
    try { this.columns = JSON.parse(table.dataset.editColumns || '[]'); } catch (e) { this.columns = []; }
    this.writes = new RowWrites(host.base, host.key);
    this.history = new UndoHistory();
    this.editing = false;
    /** Messages beside rows (by row key) or sections (`§` + key), until dismissed or the next edit. */
    this.errors = /** @type {Map<string, string>} */ (new Map());
    /** The control to give focus back to when the stream replaces its row. @type {?{row: string, control: string}} */
    this.focused = null;
    /** @type {?CellEditor} */
    this.editor = null;
    this.hintID = `list-edit-hint-${++instances}`;
    this.inView = host.inView;
    this.controls = new EditControls(table, this.columns, this.hintID, () => !host.inView());
    this.drag = new RowDrag(table, () => this.editing && !host.inView(), (tr, place) => this.move(tr, place, 'by drag'));
    this.toggleButton = toolbarButton('Edit', 'edit-toggle', () => this.toggle());
    this.undoButton = toolbarButton('Undo', 'edit-undo', () => this.undo());
    this.toolbar = this.makeToolbar();
    // Above the page's other controls (presence, view controls), which stay right before the table.
    let above = /** @type {Element} */ (table);
    while (above.previousElementSibling && above.previousElementSibling.matches('div.view-controls, p.list-presence')) {
      above = above.previousElementSibling;
    }
    above.before(this.toolbar);
    this.observer = new MutationObserver(() => this.decorate());
    table.addEventListener('click', (e) => this.onClick(e));
    table.addEventListener('dblclick', (e) => this.onDoubleClick(e));
    table.addEventListener('keydown', (e) => this.onKey(e));
    table.addEventListener('focusin', (e) => this.remember(/** @type {Element} */ (e.target)));
    document.addEventListener('keydown', (e) => this.onDocumentKey(e));
    // Focus given back after the stream replaced a row only while the reader stayed in the table.
    const away = (/** @type {Event} */ e) => { if (!this.table.contains(/** @type {Node} */ (e.target))) this.focused = null; };
    document.addEventListener('focusin', away);
    document.addEventListener('pointerdown', away);
  }

  /** The Edit and Undo buttons before the table, and the hint the cells refer to. */
  makeToolbar() {
    const bar = document.createElement('div');
    bar.className = 'edit-toolbar';
    this.toggleButton.setAttribute('aria-pressed', 'false');
    this.undoButton.disabled = true;
    const hint = document.createElement('span');
    hint.id = this.hintID;
    hint.className = 'visually-hidden';
    hint.textContent = 'Press Enter or double-click to edit.';
    bar.append(this.toggleButton, this.undoButton, hint);
    return bar;
  }

  /**
   * Switches editing mode on or off (flips it when `on` is omitted).
   * @param {boolean} [on]
   */
  toggle(on = !this.editing) {
    if (on === this.editing) return;
    this.editing = on;
    this.toggleButton.setAttribute('aria-pressed', String(on));
    this.table.classList.toggle('list-editing', on);
    if (on) {
      this.decorate();
      this.observer.observe(this.table, { childList: true, subtree: true });
      this.announcer.say('Editing on. Each row has Move up, Move down and Delete buttons; press Enter on a cell to edit it.');
    } else {
      this.observer.disconnect();
      if (this.editor) this.finishCell(this.editor, false);
      this.errors.clear();
      this.controls.undecorate();
      this.announcer.say('Editing off.');
    }
  }

  /**
   * Adds whatever controls are missing (the stream replaced rows without them), moves an open
   * cell editor into its row's replacement and gives focus back to the control that had it.
   */
  decorate() {
    if (!this.editing) return;
    this.controls.decorate(this.errors);
    if (this.editor && !this.editor.tr.isConnected) this.reattachEditor(this.editor);
    const active = document.activeElement;
    if (this.focused && (!active || active === document.body)) this.focusControl(this.focused.row, this.focused.control);
    this.observer.takeRecords(); // what this pass changed needs no other pass
  }

  // -- Input ----------------------------------------------------------------------------------

  /**
   * @param {MouseEvent} e
   */
  onClick(e) {
    const control = /** @type {Element} */ (e.target).closest('[data-edit-control]');
    if (!control || !this.editing) return;
    const tr = /** @type {HTMLTableRowElement} */ (control.closest('tr'));
    const tbody = /** @type {HTMLTableSectionElement} */ (tr.parentElement);
    switch (/** @type {HTMLElement} */ (control).dataset.editControl) {
      case 'up': this.moveBy(tr, -1); break;
      case 'down': this.moveBy(tr, 1); break;
      case 'delete': this.remove(tr); break;
      case 'add': this.add(tbody.dataset.section || ''); break;
      case 'dismiss':
        this.errors.delete(tr.dataset.errorFor || '');
        tr.remove();
        break;
    }
  }

  /**
   * @param {MouseEvent} e
   */
  onDoubleClick(e) {
    const td = /** @type {Element} */ (e.target).closest('td.edit-cell');
    if (td && this.editing) this.editCell(/** @type {HTMLTableCellElement} */ (td));
  }

  /**
   * Enter (or F2) on a cell edits it.
   * @param {KeyboardEvent} e
   */
  onKey(e) {
    const target = /** @type {Element} */ (e.target);
    if (!this.editing || !target.matches('td.edit-cell') || (e.key !== 'Enter' && e.key !== 'F2')) return;
    e.preventDefault();
    this.editCell(/** @type {HTMLTableCellElement} */ (target));
  }

  /**
   * Ctrl+Z / Cmd+Z outside a field undoes the last edit.
   * @param {KeyboardEvent} e
   */
  onDocumentKey(e) {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return;
    if (isField(e.target) || !this.history.last()) return;
    e.preventDefault();
    this.undo();
  }

  /**
   * Notes which control has focus, to give it back when the stream replaces its row.
   * @param {Element} el
   */
  remember(el) {
    const tr = el.closest('tr[data-row]');
    if (!tr || !this.editing) return;
    const control = /** @type {HTMLElement} */ (el).dataset.editControl
      || (el.matches('td.edit-cell') ? 'cell-' + /** @type {HTMLTableCellElement} */ (el).cellIndex : null);
    if (control) this.focused = { row: tr.getAttribute('data-row') || '', control };
  }

  /**
   * Focuses a row's control (`up`, `down`, `delete`, `cell-N`) when the row is on the page.
   * @param {string} row
   * @param {string} control
   */
  focusControl(row, control) {
    const tr = rowIn(this.table, row);
    if (!tr) return;
    const el = control.startsWith('cell-') ? tr.cells[Number(control.slice(5))]
      : tr.querySelector(`[data-edit-control="${control}"]`);
    if (el) /** @type {HTMLElement} */ (el).focus();
  }

  // -- Edits ----------------------------------------------------------------------------------

  /**
   * Shows `message` beside the row (or section) and says it.
   * @param {string} key a row key, or `§` + a section key
   * @param {string} message
   */
  fail(key, message) {
    this.errors.set(key, message);
    this.announcer.say(message);
    this.decorate();
  }

  /**
   * The message for a refused edit, with the row as it is now after a 412.
   * @param {string} what
   * @param {Outcome} outcome
   */
  failure(what, outcome) {
    let message = `${what} was not saved: ${outcome.reason}.`;
    if (outcome.status === 412) {
      message += outcome.current ? ` Now: ${describeRow(outcome.current, this.columns, this.titles())}.` : ' It has been deleted.';
    }
    return message;
  }

  /** The column titles, in order. */
  titles() {
    return this.controls.titles();
  }

  /**
   * A row's version as far as this page knows: the newer of the page's and the last write's.
   * @param {string} row
   * @param {string} [written] the version a write of this page gave it
   */
  version(row, written = '') {
    const tr = rowIn(this.table, row);
    const shown = tr ? tr.dataset.version || '' : '';
    return Number(written) > Number(shown) ? written : shown;
  }

  /**
   * @param {import('./edit-writes.js').UndoEntry} entry
   */
  remembered(entry) {
    this.history.push(entry);
    this.undoButton.disabled = false;
    this.undoButton.title = `Undo ${entry.label}`;
  }

  /** Undoes the last edit by its inverse write. */
  async undo() {
    const entry = this.history.pop();
    const last = this.history.last();
    this.undoButton.disabled = !last;
    this.undoButton.title = last ? `Undo ${last.label}` : '';
    if (!entry) return;
    this.errors.delete(entry.row);
    const tr = rowIn(this.table, entry.row);
    if (tr) tr.classList.add('edit-pending');
    const outcome = await entry.undo();
    if (outcome.ok) { this.announcer.say(`Undone: ${entry.label}.`); return; }
    if (tr) tr.classList.remove('edit-pending');
    const message = this.failure(`Undoing the ${entry.label}`, outcome);
    rowIn(this.table, entry.row) ? this.fail(entry.row, message) : this.announcer.say(message);
  }

  /**
   * Opens the in-place editor of a cell: a text field, or a number field for a number column.
   * @param {HTMLTableCellElement} td
   */
  async editCell(td) {
    const tr = /** @type {HTMLTableRowElement} */ (td.parentElement);
    const row = tr.getAttribute('data-row') || '';
    const column = this.columns[td.cellIndex];
    if (this.editor || !column || td.querySelector('input')) return;
    const version = tr.dataset.version || '';
    const read = await this.writes.read(row);
    if (!read.ok || !read.row) { this.fail(row, this.failure(`The ${column.key} of ${rowName(tr)}`, read)); return; }
    if (this.editor || !td.isConnected) return;
    const input = document.createElement('input');
    input.type = column.kind === 'number' ? 'number' : 'text';
    if (column.kind === 'number') input.step = 'any';
    const old = read.row.cells ? read.row.cells[column.key] ?? null : null;
    input.value = old === null ? '' : String(old);
    input.setAttribute('aria-label', `Edit ${this.titles()[td.cellIndex] || column.key} of ${rowName(tr)}`);
    /** @type {CellEditor} */
    const editor = { tr, td, row, index: td.cellIndex, column, version, old, markup: td.innerHTML, input, done: false };
    this.editor = editor;
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); this.finishCell(editor, true); }
      if (e.key === 'Escape') { e.preventDefault(); this.finishCell(editor, false); }
    });
    // Leaving the field saves; but the stream replacing the row also takes focus away for a
    // moment (the editor moves into the new row first, from the observer's microtask).
    input.addEventListener('blur', () => setTimeout(() => {
      if (input.isConnected && document.activeElement !== input) this.finishCell(editor, true);
    }, 0));
    td.replaceChildren(input);
    input.focus();
    input.select();
  }

  /**
   * The stream replaced the row being edited: the editor moves into the new row, keeping what
   * was typed and the version it started from (so a conflicting write fails with 412).
   * @param {CellEditor} editor
   */
  reattachEditor(editor) {
    const tr = rowIn(this.table, editor.row);
    const td = tr && tr.cells[editor.index];
    if (!tr || !td) { this.editor = null; return; }
    const active = document.activeElement;
    const focused = !active || active === editor.input || active === document.body;
    editor.tr = tr;
    editor.td = /** @type {HTMLTableCellElement} */ (td);
    editor.markup = td.innerHTML;
    td.replaceChildren(editor.input);
    if (focused) editor.input.focus();
  }

  /**
   * Closes the editor: saves (a merge patch of the one cell) or cancels.
   * @param {CellEditor} editor
   * @param {boolean} save
   */
  async finishCell(editor, save) {
    if (editor.done) return;
    editor.done = true;
    if (this.editor === editor) this.editor = null;
    const { tr, td, row, column, input } = editor;
    const what = `The ${this.titles()[editor.index] || column.key} of ${rowName(tr)}`;
    const value = column.kind === 'number' ? (input.value === '' ? null : Number(input.value)) : (input.value === '' ? null : input.value);
    const hadFocus = document.activeElement === input;
    const restore = () => {
      if (td.isConnected) td.innerHTML = editor.markup;
      tr.classList.remove('edit-pending');
    };
    if (!save || value === editor.old) {
      restore();
      if (td.isConnected && hadFocus) td.focus();
      return;
    }
    if (column.kind === 'number' && (input.validity.badInput || !Number.isFinite(value))) {
      restore();
      this.fail(row, `${what} was not saved: it must be a number.`);
      return;
    }
    this.errors.delete(row);
    td.textContent = value === null ? '' : String(value);
    tr.classList.add('edit-pending');
    if (hadFocus) td.focus();
    const outcome = await this.writes.mergeCells(row, editor.version, { [column.key]: value });
    if (!outcome.ok) { restore(); this.fail(row, this.failure(what, outcome)); return; }
    const written = outcome.version || '';
    this.remembered({
      label: `edit of ${what.slice(4)}`, row,
      undo: () => this.writes.mergeCells(row, this.version(row, written), { [column.key]: editor.old }),
    });
  }

  /**
   * Deletes a row; undo adds it back where it was, with its cells.
   * @param {HTMLTableRowElement} tr
   */
  async remove(tr) {
    const row = tr.getAttribute('data-row') || '';
    const name = rowName(tr);
    const section = /** @type {HTMLElement} */ (tr.parentElement).dataset.section || '';
    const place = placeOf(tr);
    const neighbour = siblingRow(tr, 1) || siblingRow(tr, -1);
    this.focused = neighbour ? { row: neighbour.getAttribute('data-row') || '', control: 'delete' } : null;
    this.errors.delete(row);
    tr.classList.add('edit-pending', 'edit-pending-delete');
    const read = await this.writes.read(row);
    const outcome = read.ok && read.row ? await this.writes.remove(row, tr.dataset.version || '') : read;
    if (!outcome.ok || !read.row) {
      tr.classList.remove('edit-pending', 'edit-pending-delete');
      this.fail(row, this.failure(`Deleting ${name}`, outcome));
      return;
    }
    const copy = Object.assign({}, read.row);
    delete (/** @type {*} */ (copy)).section;
    this.remembered({
      label: `delete of ${name}`, row,
      undo: async () => {
        const back = await this.writes.add(section, [copy], place);
        return back.status === 404 && !place.section ? this.writes.add(section, [copy]) : back;
      },
    });
  }

  /**
   * Moves a row one place up (-1) or down (1), into the next section at its edge.
   * @param {HTMLTableRowElement} tr
   * @param {number} delta
   */
  moveBy(tr, delta) {
    const name = rowName(tr);
    if (this.inView()) { this.announcer.say('Rows keep the order of the view shown; move them in the list itself.'); return; }
    const next = siblingRow(tr, delta);
    /** @type {?Place} */
    let place = null;
    if (next) place = delta < 0 ? { before: next.getAttribute('data-row') || '' } : { after: next.getAttribute('data-row') || '' };
    else {
      const bodies = Array.from(this.table.querySelectorAll(':scope > tbody[data-section]'));
      const other = /** @type {?HTMLTableSectionElement} */ (bodies[bodies.indexOf(/** @type {Element} */ (tr.parentElement)) + delta] || null);
      if (other) {
        const rows = other.querySelectorAll(':scope > tr[data-row]');
        const edge = delta < 0 ? rows[rows.length - 1] : rows[0];
        place = edge ? (delta < 0 ? { after: edge.getAttribute('data-row') || '' } : { before: edge.getAttribute('data-row') || '' })
          : { section: other.dataset.section || '' };
      }
    }
    if (!place) { this.announcer.say(`${name} is already ${delta < 0 ? 'first' : 'last'}.`); return; }
    this.move(tr, place, delta < 0 ? 'up' : 'down');
  }

  /**
   * Moves a row to `place`: at once on the page (pending), then by `POST …/move`.
   * @param {HTMLTableRowElement} tr
   * @param {Place} place
   * @param {string} how `up`, `down` or `by drag`
   */
  async move(tr, place, how) {
    const row = tr.getAttribute('data-row') || '';
    const name = rowName(tr);
    const from = placeOf(tr);
    const parent = /** @type {HTMLElement} */ (tr.parentElement);
    const after = tr.nextElementSibling;
    const active = document.activeElement;
    this.errors.delete(row);
    this.showAt(tr, place);
    tr.classList.add('edit-pending');
    if (active instanceof HTMLElement && tr.contains(active)) active.focus();
    const outcome = await this.writes.move(row, tr.dataset.version || '', place);
    if (!outcome.ok) {
      if (tr.isConnected) {
        parent.insertBefore(tr, after && after.parentElement === parent ? after : parent.querySelector(':scope > tr.edit-add'));
        tr.classList.remove('edit-pending');
        if (active instanceof HTMLElement && tr.contains(active)) active.focus();
      }
      this.fail(row, this.failure(`Moving ${name}`, outcome));
      return;
    }
    this.announcer.say(`${name} moved ${how}.`);
    const written = outcome.version || '';
    this.remembered({ label: `move of ${name}`, row, undo: () => this.writes.move(row, this.version(row, written), from) });
  }

  /**
   * Puts a row where `place` says, on the page only (the pending state of a move).
   * @param {HTMLTableRowElement} tr
   * @param {Place} place
   */
  showAt(tr, place) {
    if (place.section !== undefined) {
      const body = Array.from(this.table.querySelectorAll(':scope > tbody[data-section]'))
        .find((b) => /** @type {HTMLElement} */ (b).dataset.section === place.section);
      if (body) body.insertBefore(tr, body.querySelector(':scope > tr.edit-add, :scope > tr.section-footer'));
      return;
    }
    const anchor = rowIn(this.table, /** @type {string} */ (place.before ?? place.after));
    if (!anchor) return;
    if (place.before !== undefined) anchor.before(tr);
    else {
      const error = anchor.nextElementSibling;
      (error && /** @type {HTMLElement} */ (error).dataset.errorFor !== undefined ? error : anchor).after(tr);
    }
  }

  /**
   * Adds an empty row at the end of a section; its first cell gets focus when it arrives.
   * @param {string} section
   */
  async add(section) {
    const key = `row-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const body = Array.from(this.table.querySelectorAll(':scope > tbody[data-section]'))
      .find((b) => /** @type {HTMLElement} */ (b).dataset.section === section);
    const placeholder = document.createElement('tr');
    placeholder.className = 'edit-pending edit-placeholder';
    const td = placeholder.insertCell();
    td.colSpan = this.controls.span + 1;
    td.textContent = 'Adding a row\u2026';
    if (body) body.insertBefore(placeholder, body.querySelector(':scope > tr.edit-add'));
    this.errors.delete('\u00a7' + section);
    const firstCell = this.columns.findIndex((c) => c.kind === 'text' || c.kind === 'number');
    this.focused = { row: key, control: firstCell >= 0 ? `cell-${firstCell}` : 'delete' };
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    const outcome = await this.writes.add(section, [{ key, cells: {} }]);
    if (!outcome.ok) {
      placeholder.remove();
      this.focused = null;
      this.fail('\u00a7' + section, this.failure('The new row', outcome));
      return;
    }
    this.announcer.say('Row added. Press Enter on its cells to fill them in.');
    this.remembered({ label: 'new row', row: key, undo: () => this.writes.remove(key, this.version(key, outcome.version || '')) });
  }
}

/**
 * A toolbar `<button type="button">` that runs `action`.
 * @param {string} text
 * @param {string} name its class, besides `edit-button`
 * @param {function(): void} action
 */
function toolbarButton(text, name, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `edit-button ${name}`;
  b.textContent = text;
  b.addEventListener('click', action);
  return b;
}
