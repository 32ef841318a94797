// index-view.js: the live index of lists (docs/CLIENT.md, "The live index"). Keeps the rows of
// `table.list.index[data-live]` (the page `GET /` or `GET /lists` renders) current from the
// index stream named by `data-live` (`GET /events`, API.md section 5): lists appear where
// their id puts them, are renamed and disappear while the page is open.
// Layer 3. Imports: rows.js (Announcer, groupDigits).

import { Announcer, groupDigits } from './rows.js';

/**
 * One list's line of the index, as `GET /lists` and the stream carry it.
 * @typedef {{ id: string, title: string, rows: number, version: number }} ListSummary
 */

/** The live index of one `table.list.index[data-live]`. */
export class IndexView {
  /**
   * @param {HTMLTableElement} table
   * @param {import('./config.js').Config} config
   */
  constructor(table, config) {
    this.table = table;
    this.config = config;
    this.body = table.tBodies[0];
    const url = new URL(table.dataset.live || '', window.location.href);
    this.url = url.href;
    /** The id this page starts after (`after`), if any. */
    this.after = url.searchParams.get('after');
    /** The last id of this page while more pages follow (the stream's `reset` says), else null. */
    this.next = /** @type {?string} */ (null);
    /** Every list's newest version heard of, deleted ones too: older news is ignored. */
    this.known = /** @type {Map<string, number>} */ (new Map());
    this.announcer = new Announcer(table);
    this.source = /** @type {?EventSource} */ (null);
    this.reconnects = 0;
    this.reconnectTimer = 0;
    this.connect();
  }

  /** Opens the stream; its first event, `reset`, brings the page up to date. */
  connect() {
    if (this.source || !this.config.live) return;
    const stream = new EventSource(this.url);
    this.source = stream;
    const on = (/** @type {string} */ type, /** @type {(data: *) => void} */ fn) =>
      stream.addEventListener(type, (e) => {
        if (this.source !== stream) return;
        let data;
        try { data = JSON.parse(/** @type {MessageEvent} */ (e).data); } catch (err) { return; }
        fn(data);
      });
    on('reset', (data) => { this.reconnects = 0; this.reset(data); this.dispatch('reset', null); });
    on('list', (data) => { this.update(data, true); this.dispatch('list', data.id); });
    on('deleted', (data) => { this.remove(data); this.dispatch('deleted', data.id); });
    stream.addEventListener('error', () => { if (this.source === stream) this.onError(); });
  }

  /**
   * `list:indexupdated` on the table, once an event of the stream is applied.
   * @param {string} event the stream's event: `reset`, `list` or `deleted`
   * @param {?string} id the list it was about (null for a reset)
   */
  dispatch(event, id) {
    this.table.dispatchEvent(new CustomEvent('list:indexupdated', { bubbles: true, detail: { event, id } }));
  }

  disconnect() {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = 0;
  }

  /** Lost (or refused, e.g. 503): reconnect with backoff; the next `reset` catches up. */
  onError() {
    this.disconnect();
    const delay = Math.min(this.config.reconnectMax, this.config.reconnectBase * 2 ** this.reconnects++);
    this.reconnectTimer = window.setTimeout(() => {
      this.reconnectTimer = 0;
      this.connect();
    }, delay * (0.75 + Math.random() / 4));
  }

  /** Closes the stream for the back/forward cache. */
  suspend() {
    this.disconnect();
  }

  resume() {
    this.connect();
  }

  /**
   * The page as it is now: its lists in order, and `next` when more pages follow.
   * @param {{ lists: ListSummary[], next: ?string }} data
   */
  reset(data) {
    this.next = data.next;
    const keep = new Set(data.lists.map((list) => list.id));
    for (const row of this.rows()) if (!keep.has(row.dataset.id || '')) row.remove();
    let before = /** @type {?Element} */ (this.body.firstElementChild);
    for (const list of data.lists) {
      this.known.set(list.id, list.version);
      const row = this.row(list.id) || this.makeRow(list.id);
      this.fill(row, list);
      if (row !== before) this.body.insertBefore(row, before);
      before = row.nextElementSibling;
    }
    this.showEmpty();
  }

  /**
   * A list was created or changed: its line is added (where its id puts it, when this page
   * covers it) or brought up to date.
   * @param {ListSummary} list
   * @param {boolean} announce
   */
  update(list, announce) {
    if ((this.known.get(list.id) ?? -1) >= list.version) return;
    this.known.set(list.id, list.version);
    let row = this.row(list.id);
    if (!row) {
      if (!this.covers(list.id)) return;
      row = this.makeRow(list.id);
      this.fill(row, list);
      const after = this.rows().find((other) => (other.dataset.id || '') > list.id) || null;
      this.body.insertBefore(row, after);
      this.showEmpty();
      if (announce) this.announcer.say(`List ${list.title || list.id} added`);
      return;
    }
    const title = row.querySelector('a')?.textContent;
    this.fill(row, list);
    if (announce && title !== (list.title || list.id)) this.announcer.say(`List ${title} renamed to ${list.title || list.id}`);
  }

  /**
   * A list was deleted: its line goes.
   * @param {{ id: string, version: number }} deleted
   */
  remove(deleted) {
    if ((this.known.get(deleted.id) ?? -1) >= deleted.version) return;
    this.known.set(deleted.id, deleted.version);
    const row = this.row(deleted.id);
    if (!row) return;
    const title = row.querySelector('a')?.textContent;
    row.remove();
    this.showEmpty();
    this.announcer.say(`List ${title} deleted`);
  }

  /**
   * Whether a list with this id belongs on this page: after `after`, and up to its last id
   * when more pages follow (a later page shows the rest).
   * @param {string} id
   */
  covers(id) {
    return (this.after === null || id > this.after) && (this.next === null || id <= this.next);
  }

  /** @returns {HTMLTableRowElement[]} */
  rows() {
    return /** @type {HTMLTableRowElement[]} */ (Array.from(this.body.querySelectorAll(':scope > tr[data-id]')));
  }

  /**
   * @param {string} id
   * @returns {?HTMLTableRowElement}
   */
  row(id) {
    return this.rows().find((row) => row.dataset.id === id) || null;
  }

  /**
   * An empty line for list `id`, as the server renders one.
   * @param {string} id
   */
  makeRow(id) {
    const row = document.createElement('tr');
    row.className = 'linked';
    row.dataset.id = id;
    const link = document.createElement('a');
    link.className = 'row-link';
    link.href = '/lists/' + encodeURIComponent(id);
    const code = document.createElement('code');
    code.textContent = id;
    const cells = [link, code, null, null].map((content, i) => {
      const cell = document.createElement('td');
      if (i >= 2) cell.className = 'num';
      if (content) cell.append(content);
      return cell;
    });
    row.append(...cells);
    return row;
  }

  /**
   * Writes a list's title, rows and version into its line.
   * @param {HTMLTableRowElement} row
   * @param {ListSummary} list
   */
  fill(row, list) {
    const link = row.querySelector('a');
    if (link) link.textContent = list.title || list.id;
    row.cells[2].textContent = groupDigits(Math.max(0, list.rows));
    row.cells[3].textContent = String(list.version);
  }

  /** Shows "No lists yet." exactly when the page has no line. */
  showEmpty() {
    let empty = this.table.querySelector(':scope > tbody.empty');
    if (this.rows().length > 0) {
      if (empty) empty.remove();
      return;
    }
    if (empty) return;
    empty = document.createElement('tbody');
    empty.className = 'empty';
    empty.innerHTML = '<tr><td colspan="4">No lists yet.</td></tr>';
    this.body.after(empty);
  }
}
