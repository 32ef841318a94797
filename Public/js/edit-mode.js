// edit-mode.js: the page's editing mode (API.md section 10, docs/CLIENT.md "Editing"), offered only
// when the server marked the table `data-editable="true"` (the reader may write). An Edit button
// switches it on: per row Move up, Move down and Delete buttons and a drag handle (Pointer Events),
// per section an Add row button, cells edited in place (Enter or double click), undo (a button and
// Ctrl+Z / Cmd+Z outside a field). Each edit shows at once as a pending overlay and is sent with
// the row's `data-version` in `If-Match`; the stream's patch is the truth (this module never marks
// an edit as done: the patched row simply replaces the pending one); a refused edit puts the row
// back and says why beside it. Controls are re-added to rows the stream replaces (a MutationObserver).
// Layer 3 (Public/js/README.md). Imports: edit-writes.js; rows.js (types only).

import { RowWrites, UndoHistory, describeRow } from './edit-writes.js';

/** @typedef {import('./rows.js').Announcer} Announcer */
/** @typedef {import('./edit-writes.js').EditColumn} EditColumn */
/** @typedef {import('./edit-writes.js').Place} Place */
/** @typedef {import('./edit-writes.js').Outcome} Outcome */
/** @typedef {{base: string, key: ?string, announcer: Announcer}} EditHost */
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
    /** @type {?{tr: HTMLTableRowElement, handle: Element, pointer: number, target: ?HTMLTableRowElement, place: ?Place, side: string}} */
    this.drag = null;
    this.hintID = `list-edit-hint-${++instances}`;
    this.toggleButton = button('Edit', 'edit-toggle', () => this.toggle());
    this.undoButton = button('Undo', 'edit-undo', () => this.undo());
    this.toolbar = this.makeToolbar();
    table.before(this.toolbar);
    this.observer = new MutationObserver(() => this.decorate());
    table.addEventListener('click', (e) => this.onClick(e));
    table.addEventListener('dblclick', (e) => this.onDoubleClick(e));
    table.addEventListener('keydown', (e) => this.onKey(e));
    table.addEventListener('focusin', (e) => this.remember(/** @type {Element} */ (e.target)));
    table.addEventListener('pointerdown', (e) => this.dragStart(e));
    table.addEventListener('pointermove', (e) => this.dragMove(e));
    table.addEventListener('pointerup', (e) => this.dragEnd(e, true));
    table.addEventListener('pointercancel', (e) => this.dragEnd(e, false));
    document.addEventListener('keydown', (e) => this.onDocumentKey(e));
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
      this.undecorate();
      this.announcer.say('Editing off.');
    }
  }

  // -- Controls on the table (added, and re-added to what the stream replaces) -------------------

  /** The number of columns the rows' cells span (the controls column comes after them). */
  get span() {
    return this.columns.length || (this.table.tHead && this.table.tHead.rows[0] ? this.table.tHead.rows[0].cells.length : 1);
  }

  /** Adds whatever controls are missing: idempotent, so the observer may call it any time. */
  decorate() {
    if (!this.editing) return;
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
      this.decorateSection(body);
    }
    if (this.editor && !this.editor.tr.isConnected) this.reattachEditor(this.editor);
    const active = document.activeElement;
    if (this.focused && (!active || active === document.body)) this.focusControl(this.focused.row, this.focused.control);
    this.observer.takeRecords(); // what this pass changed needs no other pass
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
    const handle = document.createElement('span');
    handle.className = 'edit-handle';
    handle.setAttribute('aria-hidden', 'true');
    handle.textContent = '\u2630';
    td.append(handle,
      iconButton('\u2191', `Move up ${name}`, 'up'),
      iconButton('\u2193', `Move down ${name}`, 'down'),
      iconButton('\u2715', `Delete ${name}`, 'delete'));
    tr.append(td);
  }

  /**
   * The section's Add row button (before its footer) and the messages beside its rows.
   * @param {HTMLTableSectionElement} tbody
   */
  decorateSection(tbody) {
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
      if (key !== undefined && !this.errors.has(key)) tr.remove();
    }
    for (const [key, message] of this.errors) {
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
    const head = this.table.tHead && this.table.tHead.rows[0];
    return head ? Array.from(head.cells, (c) => (c.textContent || '').trim()) : [];
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
    td.colSpan = this.span + 1;
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

  // -- Drag and drop (Pointer Events: mouse, pen and touch alike) --------------------------------

  /**
   * @param {PointerEvent} e
   */
  dragStart(e) {
    const handle = /** @type {Element} */ (e.target).closest('.edit-handle');
    if (!handle || !this.editing || e.button !== 0) return;
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
  dragMove(e) {
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
  dragEnd(e, drop) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    this.drag = null;
    drag.tr.classList.remove('edit-dragging');
    if (drag.target) drag.target.classList.remove('edit-drop-before', 'edit-drop-after');
    const place = drag.place;
    if (!drop || !place || samePlace(drag.tr, place)) return;
    this.move(drag.tr, place, 'by drag');
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
function button(text, control, action) {
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
function iconButton(icon, label, control) {
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
function rowName(tr) {
  const text = tr.cells[0] ? (tr.cells[0].textContent || '').trim() : '';
  return text || `row ${tr.getAttribute('data-row')}`;
}

/**
 * The row with key `key` under `root` (keys may hold any character: compared, not selected).
 * @param {ParentNode} root
 * @param {string} key
 * @returns {?HTMLTableRowElement}
 */
function rowIn(root, key) {
  for (const tr of root.querySelectorAll('tr[data-row]')) if (tr.getAttribute('data-row') === key) return /** @type {HTMLTableRowElement} */ (tr);
  return null;
}

/**
 * The row before (-1) or after (1) `tr` in its section, or null.
 * @param {HTMLTableRowElement} tr
 * @param {number} delta
 * @returns {?HTMLTableRowElement}
 */
function siblingRow(tr, delta) {
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
function placeOf(tr) {
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
function samePlace(tr, place) {
  const key = place.before ?? place.after;
  if (key === undefined) return false;
  const here = placeOf(tr);
  const previous = siblingRow(tr, -1);
  const next = siblingRow(tr, 1);
  return (here.after !== undefined && here.after === place.after) || (place.before !== undefined && next !== null && next.getAttribute('data-row') === place.before)
    || (place.after !== undefined && previous !== null && previous.getAttribute('data-row') === place.after);
}

