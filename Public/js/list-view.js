// list-view.js: one enhanced table: owns the view document, deletion, user input and the
// back/forward cache, and wires the parts together (the only module that knows them all).
// Layer 3 (Public/js/README.md). Imports: rows.js (TableParts, Announcer, SectionToggles, Motion,
// DomSync, copyRowHeights), pager.js, live-stream.js, json-patch.js (clone); config.js (types only).

import { clone } from './json-patch.js';
import { LiveStream } from './live-stream.js';
import { Pager } from './pager.js';
import { Announcer, DomSync, Motion, PresenceBadge, SectionToggles, TableParts, copyRowHeights } from './rows.js';

/** @typedef {import('./rows.js').ViewDoc} ViewDoc */
/** @typedef {import('./config.js').Config} Config */

/**
 * The view-link key of the page's own URL (`?key=…`, docs/ACCESS.md), or null. A browser
 * cannot send a token with an EventSource, so a private list opened through a view link is
 * read with this key on every request (pages, the stream, `more`).
 * @returns {?string}
 */
function pageKey() {
  try { return new URLSearchParams(location.search).get('key'); } catch (e) { return null; }
}

/**
 * The view parameters (`sort`, `sort_desc`, `q`, `filter.COLUMN`: API.md section 9) of a URL's
 * query (the page's own by default) as `&name=value…` ('' for none): the stream, `more` and
 * further rows of a view page ask for that same view, whose cursors the page holds.
 * @param {string} [search]
 * @returns {string}
 */
function viewParameters(search = location.search) {
  try {
    let out = '';
    for (const [name, value] of new URLSearchParams(search)) {
      if (name === 'sort' || name === 'sort_desc' || name === 'q' || name.startsWith('filter.')) {
        out += `&${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
      }
    }
    return out;
  } catch (e) { return ''; }
}

/**
 * On a lazy-rows table (each row lays out its cells as a grid of its own, of equal columns by
 * default: list.css), gives each number column the width its longest number and its label
 * need (at least six characters, so that the columns do not widen at every page of a long
 * list), and the rest of the width to the other columns, in `--list-grid` (list.css's
 * `grid-template-columns` of the head row and the rows). Without the client the columns stay
 * equal; other tables size their columns by content.
 * @param {HTMLTableElement} table
 */
function fitNumberColumns(table) {
  const head = table.classList.contains('lazy-rows') && table.tHead ? table.tHead.rows[0] : null;
  if (!head) return;
  const heads = Array.from(head.cells);
  const numbers = heads.map((th) => th.classList.contains('num'));
  if (!numbers.includes(true)) return;
  const longest = heads.map(() => 6);
  for (const tr of table.querySelectorAll('tbody > tr[data-row]')) {
    for (let i = 0; i < heads.length; i++) {
      const cell = numbers[i] ? /** @type {HTMLTableRowElement} */ (tr).cells[i] : null;
      if (cell) longest[i] = Math.max(longest[i], (cell.textContent || '').trim().length);
    }
  }
  const style = getComputedStyle(heads[0]);
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const label = document.createRange();
  const template = heads.map((th, i) => {
    if (!numbers[i]) return 'minmax(0, 1fr)';
    label.selectNodeContents(th);
    const labelWidth = Math.ceil(label.getBoundingClientRect().width);
    return `max(calc(${longest[i]}ch + ${padding}px), ${labelWidth + padding}px)`;
  }).join(' ');
  if (table.style.getPropertyValue('--list-grid') !== template) table.style.setProperty('--list-grid', template);
}

/** One enhanced table: owns the view document and deletion; wires the parts together. */
export class ListView {
  /**
   * @param {HTMLTableElement} table
   * @param {Config} config
   */
  constructor(table, config) {
    this.table = table;
    this.config = config;
    this.id = table.dataset.list || '';
    this.base = config.base + encodeURIComponent(this.id);
    this.key = pageKey();
    this.viewParameters = viewParameters();
    this.deleted = false;
    this.parts = new TableParts(table);
    this.toggles = new SectionToggles(this.parts);
    this.motion = new Motion(this.parts, config);
    this.dom = new DomSync(this.parts, this.toggles, this.motion);
    /** The view document the DOM shows (docs/LIVE.md); patches apply to it. */
    this.doc = this.dom.readDocument();
    this.announcer = new Announcer(table);
    this.presence = new PresenceBadge(table);
    // The pager and the stream never import each other: each reaches the other through
    // these callbacks (read when called, so the order they are made in does not matter).
    /** @type {LiveStream} */
    this.live = new LiveStream(this.parts, config, {
      base: this.base,
      withKey: (url) => this.withKey(url),
      deleted: () => this.deleted,
      doc: () => this.doc,
      until: () => (this.pager.cursor && !this.pager.windowByCount ? this.pager.cursor : null),
      onDocument: (doc, version, isReset) => this.update(doc, version, isReset),
      onCurrent: () => this.pager.resumeLoad(),
      onRestart: () => this.pager.streamRestarted(),
      onLost: () => { this.presence.hide(); this.pager.streamLost(); },
      onDeleted: () => this.onDeleted(),
      onPresence: (viewers) => this.presence.show(viewers),
    });
    const live = this.live;
    /** @type {Pager} */
    this.pager = new Pager(this, {
      base: this.base,
      withKey: (url) => this.withKey(url),
      deleted: () => this.deleted,
      doc: () => this.doc,
      subscription: () => live.subscription,
      streamOpen: () => live.isOpen(),
      streamConnecting: () => live.isConnecting(),
      restartStream: (resume) => live.restart(resume),
      restartStreamIfOpen: () => live.restartIfOpen(),
      forgetSubscription: () => { live.subscription = null; },
      grewOutside: () => live.grewOutside(),
    });
    this.parts.sectionBodies().forEach((tb) => this.toggles.apply(tb));
    table.style.overflowAnchor = 'none'; // this client anchors the scroll itself
    table.classList.add('list-enhanced'); // list-client.css hides collapsed rows only then
    copyRowHeights(table);
    fitNumberColumns(table);
    // Longer numbers may come with new rows: the number columns widen to fit them.
    for (const type of ['list:updated', 'list:paginationended']) table.addEventListener(type, () => fitNumberColumns(table));
    window.addEventListener('resize', () => fitNumberColumns(table)); // narrow screens pad cells less
    table.addEventListener('click', (e) => this.onClick(e));
    this.pager.observe();
    if (config.live && typeof EventSource === 'function') this.live.connect(true);
  }

  /**
   * `url` (which has a query) with the page's view parameters and view-link key, if it has them.
   * @param {string} url
   */
  withKey(url) {
    const viewed = url + this.viewParameters;
    return this.key === null ? viewed : `${viewed}&key=${encodeURIComponent(this.key)}`;
  }

  /** The stream's subscription id, or null. */
  get subscription() {
    return this.live.subscription;
  }

  loadMore() {
    this.pager.loadMore();
  }

  /**
   * Collapses or expands a section (flips it when `collapsed` is omitted).
   * @param {string} key
   * @param {boolean=} collapsed
   */
  toggleSection(key, collapsed) {
    this.toggles.toggle(key, collapsed);
  }

  /**
   * @param {boolean} resume
   */
  connect(resume) {
    this.live.connect(resume);
  }

  disconnect() {
    this.live.disconnect();
  }

  /**
   * @param {MouseEvent} e
   */
  onClick(e) {
    const target = /** @type {Element} */ (e.target);
    const toggle = target.closest('tr.section-header button[aria-expanded]');
    if (toggle && this.table.contains(toggle)) {
      const tbody = /** @type {HTMLTableSectionElement} */ (toggle.closest('tbody'));
      this.toggles.toggle(tbody.dataset.section || '');
      return;
    }
    const paging = target.closest('tbody.pagination a[rel~="next"], tbody.pagination button');
    if (paging && this.table.contains(paging)) {
      e.preventDefault();
      this.pager.loadMore();
    }
  }

  /**
   * Takes a new view document at `version` and brings the DOM in line. Its `until` is taken
   * from a reset, or when a patch changed it (a server without `until` leaves the page's).
   * @param {ViewDoc} doc
   * @param {string} version
   * @param {boolean} [isReset]
   */
  update(doc, version, isReset = false) {
    const { live, pager } = this;
    live.delivered();
    const previous = this.doc;
    this.doc = doc;
    if (typeof doc.until === 'string' && (isReset || doc.until !== previous.until)) pager.setCursor(doc.until);
    if (version) { live.lastId = version; this.table.dataset.version = version; }
    let stats;
    try {
      stats = this.motion.mutate(() => this.dom.sync(doc, pager.loading));
    } catch (err) {
      live.restart(false);
      return;
    }
    const more = pager.moreRowsIn(doc);
    if (more) this.announcer.moreLoaded(more);
    else this.announcer.changed(stats.added, stats.removed);
    this.parts.dispatch('list:updated', { version: live.lastId, added: stats.added, removed: stats.removed });
    pager.checkMore(doc);
    pager.syncPagination(doc);
  }

  onDeleted() {
    this.live.disconnect();
    this.deleted = true;
    this.pager.stop();
    this.presence.hide();
    this.table.removeAttribute('aria-busy');
    this.announcer.say('This list was deleted.');
    this.parts.dispatch('list:deleted', null);
  }

  /**
   * Shows another view of the list in place (view-controls.js): `page` is that view's table as
   * the server rendered its first page, `search` the query of its URL. The old view's stream and
   * loading stop; the table takes the page's head, bodies, version and cursor; a new pager and
   * a new stream continue the new view from there, as on a page load.
   * @param {HTMLTableElement} page
   * @param {string} search
   */
  showView(page, search) {
    const t = this.table;
    this.live.disconnect();
    this.pager.stop('view changed');
    this.viewParameters = viewParameters(search);
    for (const name of ['data-version', 'data-cursor']) {
      const value = page.getAttribute(name);
      if (value === null) t.removeAttribute(name);
      else t.setAttribute(name, value);
    }
    const parts = ':scope > thead, :scope > tbody, :scope > tfoot';
    t.querySelectorAll(parts).forEach((el) => el.remove());
    t.append(...Array.from(page.querySelectorAll(parts), (el) => document.adoptNode(el)));
    this.doc = this.dom.readDocument();
    this.parts.sectionBodies().forEach((tb) => this.toggles.apply(tb));
    this.parts.setBusy(!!this.parts.statusBody()?.classList.contains('state-loading'));
    this.live.lastId = t.dataset.version || '';
    this.live.stale = false;
    this.pager = new Pager(this, this.pager.host);
    this.pager.observe();
    if (this.config.live && typeof EventSource === 'function') this.live.connect(true);
  }

  // -- back/forward cache --------------------------------------------------------------------

  suspend() {
    this.pager.observer.disconnect();
    this.live.suspend();
  }

  resume() {
    this.live.resume();
    this.pager.observe();
  }

  /** A snapshot for tests and debugging. */
  get state() {
    return {
      version: this.live.lastId, subscription: this.live.subscription, cursor: this.pager.cursor,
      connected: this.live.isOpen(),
      loading: this.pager.loading, more: !!this.parts.paginationBody(), settled: this.motion.busy === 0,
      doc: clone(this.doc),
    };
  }
}
