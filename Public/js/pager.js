// pager.js: tail loading: one page at a time, by `POST …/more` while subscribed, else
// `GET …/rows`; retries with backoff; the pagination row (link, spinner, error) and its observer.
// Layer 2 (Public/js/README.md). Imports: rows.js (template, domKey, rowCount; the parts'
// types); config.js (types only). It never imports the live stream: the view that wires them
// passes the stream's side in as callbacks (PagerHost).

import { domKey, rowCount, template } from './rows.js';

/** @typedef {import('./rows.js').ViewDoc} ViewDoc */
/** @typedef {import('./config.js').Config} Config */
/**
 * The table's parts the pager works with (made by the view, shared with it).
 * @typedef {object} PagerParts
 * @property {import('./rows.js').TableParts} parts
 * @property {Config} config
 * @property {import('./rows.js').Motion} motion
 * @property {import('./rows.js').DomSync} dom
 * @property {import('./rows.js').SectionToggles} toggles
 * @property {import('./rows.js').Announcer} announcer
 */
/**
 * What the pager asks of the view that wires it: the list's URLs, its state, and the live stream.
 * @typedef {object} PagerHost
 * @property {string} base the list's URL (`/lists/{id}`)
 * @property {(url: string) => string} withKey `url` with the page's view-link key, if any
 * @property {() => boolean} deleted the list was deleted
 * @property {() => ViewDoc} doc the view document the DOM shows
 * @property {() => ?string} subscription the stream's subscription id, or null
 * @property {() => boolean} streamOpen the stream is open
 * @property {() => boolean} streamConnecting the stream is connecting
 * @property {(resume: boolean) => void} restartStream closes and reopens the stream
 * @property {() => void} restartStreamIfOpen reopens the stream (for a reset) if one is open or connecting
 * @property {() => void} forgetSubscription the subscription is gone (404, 410): the next load is a GET
 * @property {() => void} grewOutside rows came from a GET page: the next stream must start with a reset
 */

/**
 * The `after` parameter of a URL, or null.
 * @param {?string} url
 */
function afterParam(url) {
  if (!url) return null;
  try { return new URL(url, location.href).searchParams.get('after'); } catch (e) { return null; }
}

/**
 * The rel=next URL of a `Link` header, or null.
 * @param {?string} header
 */
function nextLink(header) {
  const match = header && /<([^>]*)>\s*;[^,]*rel="?next"?/.exec(header);
  return match ? match[1] : null;
}

/**
 * Tail loading: one page at a time, by `POST …/more` while subscribed, else `GET …/rows`;
 * retries with backoff; the pagination row (link, spinner, error) and its observer.
 */
export class Pager {
  /**
   * @param {PagerParts} kit the table's lower-layer parts, shared with the view
   * @param {PagerHost} host
   */
  constructor({ parts, config, motion, dom, toggles, announcer }, host) {
    this.parts = parts;
    this.config = config;
    this.motion = motion;
    this.dom = dom;
    this.toggles = toggles;
    this.announcer = announcer;
    this.host = host;
    const next = this.parts.nextHref();
    /** The cursor after the last row shown, or null when unknown. */
    this.cursor = parts.table.dataset.cursor || afterParam(next);
    this.pageSize = this.config.pageSize || Number(new URLSearchParams((next || '').split('?')[1] || '').get('limit')) || 50;
    this.windowByCount = false; // true once the window grew past a cursor the client knows
    this.fetched = /** @type {Set<string>} */ (new Set()); // cursors whose page arrived
    this.loading = false;
    this.stopped = false; // stopped for good (a deleted list, another view)
    this.awaitingReset = false; // a load waits for the reset of a fresh subscription
    this.attempt = 0;
    this.retryTimer = 0;
    /** @type {?{rows: number, lastKey: ?string, timer: number}} */
    this.pendingMore = null;
    this.linkRow = this.parts.paginationBody()?.rows[0] || null;
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.loadMore();
    }, { rootMargin: this.config.rootMargin });
  }

  /**
   * Takes the cursor after the window's last row.
   * @param {string} cursor
   * @param {boolean} known the client knows it (else the window is named by its row count)
   */
  setCursor(cursor, known = true) {
    this.cursor = cursor;
    this.parts.table.dataset.cursor = cursor;
    this.windowByCount = !known;
  }

  /** Watches the pagination row; a fresh observation also fires when it is already in view. */
  observe() {
    this.observer.disconnect();
    const body = this.parts.paginationBody();
    if (body && !this.loading && !this.host.deleted()) this.observer.observe(body);
  }

  /** Loads the next page unless one is loading or none remains. */
  loadMore() {
    if (this.loading || this.host.deleted() || !this.parts.paginationBody()) return;
    this.loading = true;
    this.attempt = 0;
    this.observer.disconnect();
    this.showPagination('loading');
    this.parts.dispatch('list:paginationstarted', this.parts.lastRowPath());
    this.tryLoad();
  }

  /** One attempt: through the subscription when there is one, else a GET fragment. */
  tryLoad() {
    const { host } = this;
    const subscription = host.subscription();
    this.awaitingReset = false;
    if (subscription && host.streamOpen()) {
      this.requestMore(subscription);
    } else if (!this.windowByCount) {
      this.fetchPage();
    } else if (this.config.live && typeof EventSource === 'function') {
      // The window grew past any cursor known here: only a subscription can continue it.
      // Wait for the stream that is connecting, else open a fresh one (it sends a reset).
      this.awaitingReset = true;
      if (!host.streamConnecting()) host.restartStream(false);
      window.clearTimeout(this.retryTimer);
      this.retryTimer = window.setTimeout(() => {
        if (this.awaitingReset) this.loadFailed(new Error('no subscription'));
      }, this.config.moreTimeout);
    } else {
      this.loadFailed(new Error('no cursor to continue from'));
    }
  }

  /** Continues a load that waited for a subscription, once the stream is current. */
  resumeLoad() {
    if (this.loading && this.awaitingReset && this.host.subscription() && !this.pendingMore) this.tryLoad();
  }

  /**
   * Retries after a backoff, or shows the error row once the retries ran out.
   * @param {*} error
   */
  loadFailed(error) {
    if (!this.loading) return;
    if (this.attempt < this.config.retries) {
      const delay = this.config.retryBase * 2 ** this.attempt++;
      this.retryTimer = window.setTimeout(() => this.tryLoad(), delay);
      return;
    }
    this.loading = false;
    this.showPagination('error');
    this.parts.dispatch('list:paginationfailed', { error: String(error && error.message || error) });
  }

  /**
   * Ends a successful load.
   * @param {?Element} firstNewRow
   */
  loadFinished(firstNewRow) {
    this.loading = false;
    this.awaitingReset = false;
    this.showPagination('idle');
    this.parts.dispatch('list:paginationended', firstNewRow && firstNewRow.isConnected ? this.parts.indexPath(firstNewRow) : null);
    this.observe();
  }

  /** The stream was lost: a `more` or a load waiting for a subscription fails (and may retry). */
  streamLost() {
    if (this.pendingMore) this.moreFailed(new Error('stream lost'));
    else if (this.loading && this.awaitingReset) {
      this.awaitingReset = false;
      this.loadFailed(new Error('stream lost'));
    }
  }

  /** The stream closes to reopen: a pending `more` fails (its rows would not come). */
  streamRestarted() {
    if (this.pendingMore) this.moreFailed(new Error('stream restarted'));
  }

  /**
   * Stops loading for good: the list was deleted, or the table shows another view (`reason`,
   * the error of the `list:paginationfailed` that ends a load in progress).
   * @param {string} [reason]
   */
  stop(reason = 'deleted') {
    clearTimeout(this.retryTimer);
    if (this.pendingMore) clearTimeout(this.pendingMore.timer);
    this.pendingMore = null;
    if (this.loading) this.parts.dispatch('list:paginationfailed', { error: reason });
    this.loading = false;
    this.observer.disconnect();
    this.parts.paginationBody()?.remove();
    this.stopped = true;
  }

  async fetchPage() {
    const cursor = this.cursor;
    if (cursor === null || this.fetched.has(cursor)) {
      // No cursor to continue from (or that page is already here): nothing more to load.
      this.parts.paginationBody()?.remove();
      this.loadFinished(null);
      return;
    }
    let text, link, listCursor;
    try {
      const url = this.host.withKey(`${this.host.base}/rows?after=${encodeURIComponent(cursor)}&limit=${this.pageSize}`);
      const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      text = await response.text();
      link = response.headers.get('Link');
      listCursor = response.headers.get('List-Cursor');
    } catch (error) {
      this.loadFailed(error);
      return;
    }
    if (!this.loading || this.cursor !== cursor) return; // superseded (reset, deletion)
    this.fetched.add(cursor);
    const first = this.appendFragment(text, link, listCursor);
    this.host.grewOutside();
    this.loadFinished(first);
    this.host.restartStreamIfOpen(); // the window grew outside the stream
  }

  /**
   * Appends a `GET …/rows` fragment: continued sections' rows join their tbody.
   * @param {string} html
   * @param {?string} link the `Link` header (rel=next: the next page)
   * @param {?string} listCursor the optional `List-Cursor` header: the cursor after the last row
   * @returns {?Element} the first new row
   */
  appendFragment(html, link, listCursor) {
    const { parts } = this;
    template.innerHTML = html;
    const bodies = Array.from(template.content.children).filter((el) => el.tagName === 'TBODY');
    let first = /** @type {?Element} */ (null);
    let nextBody = /** @type {?HTMLTableSectionElement} */ (null);
    let added = 0;
    const shown = parts.shownKeys();
    this.motion.mutate(() => {
      for (const body of bodies) {
        document.adoptNode(body);
        if (body.classList.contains('pagination')) { nextBody = /** @type {HTMLTableSectionElement} */ (body); continue; }
        const key = body.getAttribute('data-section');
        const existing = parts.sectionBody(key);
        for (const tr of body.querySelectorAll(':scope > tr')) {
          const rowKey = tr.getAttribute('data-row');
          if (rowKey !== null && shown.has(rowKey)) { tr.remove(); continue; } // moved during the walk
          if (rowKey !== null) { shown.add(rowKey); added++; first = first || tr; }
          this.dom.remember(tr);
        }
        if (existing) existing.append(...Array.from(body.children));
        else parts.table.insertBefore(body, parts.statusBody() || parts.paginationBody());
        if (key !== null) this.toggles.apply(/** @type {HTMLTableSectionElement} */ (existing || body));
      }
      return null;
    });
    const next = nextLink(link) || nextBody?.querySelector('a[rel~="next"]')?.getAttribute('href') || null;
    const cursor = afterParam(next);
    if (nextBody && cursor) {
      this.linkRow = nextBody.rows[0] || this.linkRow;
      this.cursor = cursor;
      parts.table.dataset.cursor = cursor;
    } else {
      parts.paginationBody()?.remove();
      if (listCursor) {
        this.cursor = listCursor;
        parts.table.dataset.cursor = listCursor;
      }
      this.windowByCount = !listCursor; // without it the cursor after the last row is unknown
    }
    this.announcer.moreLoaded(added);
    return first;
  }

  /**
   * Asks the subscription for more rows; they arrive as `add` operations in the stream.
   * @param {string} sub
   */
  async requestMore(sub) {
    const rows = this.host.doc().sections.flatMap((s) => s.rows);
    this.pendingMore = {
      rows: rows.length,
      lastKey: rows.length ? rows[rows.length - 1].key : null,
      timer: window.setTimeout(() => this.moreFailed(new Error('timed out')), this.config.moreTimeout),
    };
    const pending = this.pendingMore;
    const cursorBefore = this.cursor;
    try {
      const url = this.host.withKey(`${this.host.base}/subscriptions/${encodeURIComponent(sub)}/more?limit=${this.pageSize}`);
      const response = await fetch(url, { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (this.stopped) return; // the stream it asked is gone: its subscription is not the next one's
      if (response.status === 404 || response.status === 410) this.host.forgetSubscription(); // retry by GET
      if (!response.ok) throw new Error('HTTP ' + response.status);
      const body = await response.json().catch(() => null);
      if (body && typeof body.until === 'string') { this.cursor = body.until; this.windowByCount = false; }
      else if (this.cursor === cursorBefore) this.windowByCount = true; // unless a patch's `until` came first
    } catch (error) {
      if (this.pendingMore === pending) this.moreFailed(error);
    }
  }

  /**
   * @param {*} error
   */
  moreFailed(error) {
    if (!this.pendingMore) return;
    clearTimeout(this.pendingMore.timer);
    this.pendingMore = null;
    this.loadFailed(error);
  }

  /**
   * The rows a new document brings to a pending `more` (0 when none is pending or the
   * document has no more rows than when it was asked).
   * @param {ViewDoc} doc
   */
  moreRowsIn(doc) {
    return this.pendingMore ? Math.max(0, rowCount(doc) - this.pendingMore.rows) : 0;
  }

  /**
   * Ends a pending `more` once its rows (or the end of the list) reached the view document.
   * @param {ViewDoc} doc
   */
  checkMore(doc) {
    const pending = this.pendingMore;
    if (!pending || (rowCount(doc) <= pending.rows && doc.more)) return;
    clearTimeout(pending.timer);
    this.pendingMore = null;
    const keys = doc.sections.flatMap((s) => s.rows.map((r) => r.key));
    const at = pending.lastKey === null ? 0 : keys.indexOf(pending.lastKey) + 1 || pending.rows;
    this.loadFinished(at < keys.length ? this.parts.rowElement(domKey(keys[at])) : null);
  }

  /**
   * Shows the pagination row as the link, a spinner, or an error with a retry button.
   * @param {'idle'|'loading'|'error'} state
   */
  showPagination(state) {
    const table = this.parts.table;
    const body = this.parts.paginationBody();
    const stateLoading = !!this.parts.statusBody()?.classList.contains('state-loading');
    for (const el of [table, body]) {
      if (el && (state === 'loading' || (el === table && stateLoading))) el.setAttribute('aria-busy', 'true');
      else if (el) el.removeAttribute('aria-busy');
    }
    if (!body) return;
    if (state === 'idle') {
      body.replaceChildren(this.linkRow || this.statusRow('list-more', 'Load more', 'button'));
    } else if (state === 'loading') {
      body.replaceChildren(this.statusRow('list-loading', 'Loading…', 'spinner'));
    } else {
      body.replaceChildren(this.statusRow('list-error', 'Could not load more rows.', 'retry'));
    }
  }

  /**
   * A full-width row holding a message and, for `retry`/`button`, a button.
   * @param {string} className
   * @param {string} text
   * @param {'spinner'|'retry'|'button'} extra
   */
  statusRow(className, text, extra) {
    const tr = document.createElement('tr');
    tr.className = className;
    const td = tr.insertCell();
    td.colSpan = this.parts.columnCount();
    if (extra === 'spinner') {
      const spinner = td.appendChild(document.createElement('span'));
      spinner.className = 'list-spinner';
      spinner.setAttribute('aria-hidden', 'true');
      const label = td.appendChild(document.createElement('span'));
      label.setAttribute('role', 'status');
      label.textContent = text;
    } else if (extra === 'retry') {
      const message = td.appendChild(document.createElement('span'));
      message.setAttribute('role', 'alert');
      message.textContent = text + ' ';
      const button = td.appendChild(document.createElement('button'));
      button.type = 'button';
      button.className = 'list-retry';
      button.textContent = 'Retry';
    } else {
      const button = td.appendChild(document.createElement('button'));
      button.type = 'button';
      button.className = 'list-more-button';
      button.textContent = text;
    }
    return tr;
  }

  /**
   * Shows or hides the pagination row as the view document's `more` says.
   * @param {ViewDoc} doc
   */
  syncPagination(doc) {
    const table = this.parts.table;
    let body = this.parts.paginationBody();
    if (doc.more && !body) {
      body = document.createElement('tbody');
      body.className = 'pagination';
      table.append(body);
      this.showPagination(this.loading ? 'loading' : 'idle');
      this.observe();
    } else if (!doc.more && body) {
      body.remove();
      this.observe();
    } else if (body && body !== table.lastElementChild) {
      table.append(body);
    }
  }
}
