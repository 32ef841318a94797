// edit-writes.js: the row writes of the page's editing mode (API.md "Editing one row"): read a
// row, merge its cells, delete, move and add rows, each with the row's version in `If-Match`,
// bounded in time, answering an outcome that says why a write failed in words a reader
// understands; and the undo history of this page's edits (each undone by its inverse write).
// No DOM. Layer 2 (Public/js/README.md). Imports: edit-rows.js (types only).

/** @typedef {import('./edit-rows.js').EditColumn} EditColumn */
/** @typedef {import('./edit-rows.js').Place} Place */
/** @typedef {{key: string, section: string, cells: Object<string, *>, href?: string, style?: string}} RowJSON */
/**
 * What a write came to: `ok`, or why not (`reason`, for the reader) and, after a 412, the row as
 * it is now (`current`, null when it is gone).
 * @typedef {{ok: boolean, status: number, reason: string, current?: ?RowJSON, body?: *}} Outcome
 */

/** How long a write may take before the page gives up on it (ms). */
const WRITE_TIMEOUT = 15000;

/**
 * A cell's value as text for a message (numbers as they are; links and images by their text).
 * @param {*} value
 */
export function cellText(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return String(value.text ?? value.alt ?? value.src ?? '');
  return String(value);
}

/** The list's row endpoints, as the page's reader (with its edit link's `key`, if any). */
export class RowWrites {
  /**
   * @param {string} base the list's URL (`/lists/ID`)
   * @param {?string} key the page's edit-link key, carried on every write
   */
  constructor(base, key) {
    this.base = base;
    this.key = key;
  }

  /**
   * A URL under the list's, with `query` (`name=value&…`, already encoded) and the key.
   * @param {string} path
   * @param {string} [query]
   */
  url(path, query = '') {
    const parts = [query, this.key === null ? '' : `key=${encodeURIComponent(this.key)}`].filter(Boolean);
    return this.base + path + (parts.length ? '?' + parts.join('&') : '');
  }

  /**
   * `/rows/KEY` (the key percent-encoded as one path segment).
   * @param {string} row
   */
  rowPath(row) {
    return '/rows/' + encodeURIComponent(row);
  }

  /**
   * The row as the server has it now, with its version; null outcome body when it failed.
   * @param {string} row
   * @returns {Promise<Outcome & {row?: RowJSON, version?: string}>}
   */
  async read(row) {
    const outcome = await this.send('GET', this.url(this.rowPath(row)), null, null, null);
    return outcome;
  }

  /**
   * Merges `cells` into the row (RFC 7396: `null` empties a cell).
   * @param {string} row
   * @param {string} version the row's `data-version`
   * @param {Object<string, *>} cells
   */
  mergeCells(row, version, cells) {
    return this.send('PATCH', this.url(this.rowPath(row)), version, 'application/merge-patch+json', { cells });
  }

  /**
   * @param {string} row
   * @param {string} version
   */
  remove(row, version) {
    return this.send('DELETE', this.url(this.rowPath(row)), version, null, null);
  }

  /**
   * @param {string} row
   * @param {string} version
   * @param {Place} place
   */
  move(row, version, place) {
    return this.send('POST', this.url(this.rowPath(row) + '/move', placeQuery(place)), version, null, null);
  }

  /**
   * Adds `rows` to `section`, at the end or at `place` (`before`/`after` a row).
   * @param {string} section
   * @param {Object<string, *>[]} rows
   * @param {Place} [place]
   */
  add(section, rows, place = {}) {
    const query = place.before !== undefined || place.after !== undefined ? placeQuery(place) : '';
    const path = '/sections/' + encodeURIComponent(section) + '/rows';
    return this.send('POST', this.url(path, query), null, 'application/json', rows);
  }

  /**
   * One request, bounded by WRITE_TIMEOUT; never throws.
   * @param {string} method
   * @param {string} url
   * @param {?string} version sent as `If-Match: "V"`
   * @param {?string} type the body's `Content-Type`
   * @param {*} body JSON, or null for none
   * @returns {Promise<Outcome & {row?: RowJSON, version?: string}>}
   */
  async send(method, url, version, type, body) {
    /** @type {Object<string, string>} */
    const headers = { Accept: 'application/json' };
    if (version) headers['If-Match'] = `"${version}"`;
    if (type) headers['Content-Type'] = type;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), WRITE_TIMEOUT);
    try {
      const response = await fetch(url, {
        method, headers, body: body === null ? undefined : JSON.stringify(body),
        signal: abort.signal, cache: 'no-store', credentials: 'same-origin',
      });
      const text = await response.text();
      let json = null;
      try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
      if (response.ok) {
        const etag = (response.headers.get('ETag') || '').replace(/^W\//, '').replace(/"/g, '');
        return { ok: true, status: response.status, reason: '', row: json, version: etag, body: json };
      }
      return { ok: false, status: response.status, reason: failureReason(response.status, json), current: json ? json.current : undefined, body: json };
    } catch (err) {
      const timedOut = abort.signal.aborted;
      return { ok: false, status: 0, reason: timedOut ? 'the server did not answer in time' : 'the connection was lost' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * `before=K`, `after=K` or `section=K`.
 * @param {Place} place
 */
function placeQuery(place) {
  if (place.before !== undefined) return 'before=' + encodeURIComponent(place.before);
  if (place.after !== undefined) return 'after=' + encodeURIComponent(place.after);
  return 'section=' + encodeURIComponent(place.section || '');
}

/**
 * Why a write was refused, for the reader.
 * @param {number} status
 * @param {*} problem the problem+json body, if any
 */
function failureReason(status, problem) {
  const detail = problem && typeof problem.detail === 'string' ? problem.detail : '';
  if (status === 412) return 'someone changed this row first';
  if (status === 401 || status === 403) return 'this page may not change the list' + (detail ? ` (${detail})` : '');
  if (status === 404) return 'it is no longer in the list';
  if (status === 422 || status === 400 || status === 409) return detail || 'the server did not accept it';
  if (status === 503 || status === 507) return 'the server is busy; try again' + (detail ? ` (${detail})` : '');
  return `the server answered ${status}` + (detail ? ` (${detail})` : '');
}

/**
 * The row's cells as "Title: value, …" for a message, in column order.
 * @param {?RowJSON|undefined} row
 * @param {EditColumn[]} columns
 * @param {string[]} titles
 */
export function describeRow(row, columns, titles) {
  if (!row) return '';
  const cells = row.cells || {};
  return columns.map((c, i) => `${titles[i] || c.key}: ${cellText(cells[c.key]) || '(empty)'}`).join(', ');
}

/**
 * One undoable edit: what it did, its row, and the write that undoes it.
 * @typedef {{label: string, undo: () => Promise<Outcome>, row: string}} UndoEntry
 */

/** The last edits of this page, newest last, each with its inverse write. */
export class UndoHistory {
  /**
   * @param {number} limit how many edits are kept
   */
  constructor(limit = 50) {
    this.limit = limit;
    /** @type {UndoEntry[]} */
    this.entries = [];
  }

  /**
   * @param {UndoEntry} entry
   */
  push(entry) {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.shift();
  }

  /** @returns {?UndoEntry} */
  pop() {
    return this.entries.pop() || null;
  }

  /** @returns {?UndoEntry} */
  last() {
    return this.entries[this.entries.length - 1] || null;
  }
}
