// list.js: progressive enhancement for list-server tables (docs/CLIENT.md, docs/LIVE.md).
// Tail loading, live JSON Patch updates over Server-Sent Events, collapsible sections.
// No dependencies, no build step, no eval: works under `script-src 'self'`.
'use strict';

(function () {
  /** @typedef {{key: string, html: string}} ViewRow */
  /** @typedef {{key: string, header: ?string, footer: ?string, rows: ViewRow[]}} ViewSection */
  /**
   * The `view=html` document the stream's patches apply to (docs/LIVE.md); `until` is the
   * cursor that reopens the window (null when it holds no rows).
   * @typedef {{title?: string, head?: ?string, sections: ViewSection[], status?: ?string, more?: boolean, until?: ?string}} ViewDoc
   */
  /** @typedef {{section: number, row: number}} IndexPath */
  /** @typedef {{op: string, path: string, from?: string, value?: *}} PatchOp */
  /**
   * What a DOM sync did: rows added and removed (by key), new row elements, replaced elements.
   * @typedef {{added: number, removed: number, entered: Element[], replaced: Set<Element>}} SyncStats
   */

  /** Tunables; override with `window.ListClientConfig = {...}` before the script runs. */
  const DEFAULTS = {
    base: '/lists/', // the list URLs' prefix
    pageSize: 0, // rows per page; 0: the `limit` of the page's rel=next link, else 50
    rootMargin: '0px 0px 150% 0px', // how far ahead of the end the next page is fetched
    retries: 3, // automatic retries of a failed page before the error row shows
    retryBase: 500, // ms; doubles on each retry
    reconnectBase: 1000, // ms; doubles on each failed reconnect
    reconnectMax: 30000, // ms
    moreTimeout: 15000, // ms to wait for the rows of a `more` request in the stream
    live: true, // subscribe to the live stream
    animate: true, // animate row changes (never under prefers-reduced-motion)
    animationMs: 200,
    stylesheet: true, // load list-client.css from beside list.js unless the page has it
  };

  // ---------------------------------------------------------------------------------------
  // JSON Patch (RFC 6902) and JSON Pointer (RFC 6901)

  /** Thrown when a patch does not apply. */
  class PatchError extends Error {}

  /**
   * Splits a JSON Pointer into unescaped reference tokens.
   * @param {string} pointer
   * @returns {string[]}
   */
  function parsePointer(pointer) {
    if (pointer === '') return [];
    if (typeof pointer !== 'string' || pointer[0] !== '/' || /~[^01]|~$/.test(pointer)) {
      throw new PatchError('bad pointer ' + pointer);
    }
    return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  }

  /**
   * @param {*} v
   */
  const isContainer = (v) => v !== null && typeof v === 'object';

  /**
   * The array index a token names; `-` (one past the end) only when `forAdd`.
   * @param {Array<*>} array
   * @param {string} token
   * @param {boolean} forAdd
   */
  function arrayIndex(array, token, forAdd) {
    if (forAdd && token === '-') return array.length;
    if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError('bad array index ' + token);
    const index = Number(token);
    if (index > array.length || (!forAdd && index === array.length)) {
      throw new PatchError('index out of range ' + token);
    }
    return index;
  }

  /**
   * @param {*} obj
   * @param {string} key
   */
  const hasOwn = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

  /**
   * The value at `tokens`; throws when absent.
   * @param {*} doc
   * @param {string[]} tokens
   */
  function getAt(doc, tokens) {
    let value = doc;
    for (const token of tokens) {
      if (Array.isArray(value)) value = value[arrayIndex(value, token, false)];
      else if (isContainer(value) && hasOwn(value, token)) value = value[token];
      else throw new PatchError('no value at /' + tokens.join('/'));
    }
    return value;
  }

  /**
   * Sets an own property, safely even for `__proto__`.
   * @param {*} obj
   * @param {string} key
   * @param {*} value
   */
  function setOwn(obj, key, value) {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  }

  /**
   * @param {*} doc
   * @param {string[]} tokens
   * @param {*} value
   * @returns {*} the new document
   */
  function addAt(doc, tokens, value) {
    if (tokens.length === 0) return value;
    const parent = getAt(doc, tokens.slice(0, -1));
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
    else if (isContainer(parent)) setOwn(parent, last, value);
    else throw new PatchError('cannot add into a scalar');
    return doc;
  }

  /**
   * @param {*} doc
   * @param {string[]} tokens
   * @returns {*} the removed value
   */
  function removeAt(doc, tokens) {
    if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
    const parent = getAt(doc, tokens.slice(0, -1));
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false), 1)[0];
    if (isContainer(parent) && hasOwn(parent, last)) {
      const value = parent[last];
      delete parent[last];
      return value;
    }
    throw new PatchError('no value to remove at /' + tokens.join('/'));
  }

  /**
   * JSON equality (object member order does not matter).
   * @param {*} a
   * @param {*} b
   * @returns {boolean}
   */
  function deepEqual(a, b) {
    if (a === b) return true;
    if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
  }

  /**
   * @template T
   * @param {T} value
   * @returns {T}
   */
  const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

  /**
   * Applies an RFC 6902 patch to a copy of `doc`; throws PatchError when any operation fails
   * (the input is never changed, so the application is atomic).
   * @param {*} doc
   * @param {PatchOp[]} ops
   * @returns {*}
   */
  function applyPatch(doc, ops) {
    if (!Array.isArray(ops)) throw new PatchError('a patch is an array');
    let out = clone(doc);
    for (const op of ops) {
      if (!isContainer(op)) throw new PatchError('an operation is an object');
      const path = parsePointer(op.path);
      switch (op.op) {
        case 'add': out = addAt(out, path, clone(requireValue(op))); break;
        case 'remove': removeAt(out, path); break;
        case 'replace':
          if (path.length === 0) { out = clone(requireValue(op)); break; }
          removeAt(out, path);
          out = addAt(out, path, clone(requireValue(op)));
          break;
        case 'move': {
          const from = parsePointer(/** @type {string} */ (op.from));
          if (op.path === op.from) { getAt(out, from); break; }
          if (op.path.startsWith(op.from + '/')) throw new PatchError('cannot move into a child');
          out = addAt(out, path, removeAt(out, from));
          break;
        }
        case 'copy':
          out = addAt(out, path, clone(getAt(out, parsePointer(/** @type {string} */ (op.from)))));
          break;
        case 'test':
          if (!deepEqual(getAt(out, path), requireValue(op))) throw new PatchError('test failed at ' + op.path);
          break;
        default: throw new PatchError('unknown op ' + op.op);
      }
    }
    return out;
  }

  /**
   * @param {PatchOp} op
   */
  function requireValue(op) {
    if (!hasOwn(op, 'value')) throw new PatchError(op.op + ' needs a value');
    return op.value;
  }

  // ---------------------------------------------------------------------------------------
  // Markup helpers

  const template = document.createElement('template');

  /**
   * Parses trusted server markup (a `<tr>` or `<tbody>`) into one element, through a
   * `<template>` so table parts keep their table parsing context. Scripts in it stay inert.
   * @param {string} html
   * @returns {HTMLElement}
   */
  function parseElement(html) {
    template.innerHTML = html;
    const el = template.content.firstElementChild;
    if (!el) throw new PatchError('markup without an element');
    return /** @type {HTMLElement} */ (document.adoptNode(el));
  }

  /**
   * The `id` the renderer gives a section's `<tbody>` (HTMLRenderer.sectionElementID).
   * @param {string} key
   */
  function sectionElementID(key) {
    return 'list-section-' + key.replace(/[\u0000-\u0020%\u007f]/g,
      (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
  }

  /**
   * A key as the page's `data-row`/`data-section` holds it: the HTML parser reads U+0000 as U+FFFD.
   * @param {string} key
   */
  const domKey = (key) => key.replace(/\u0000/g, '\ufffd');

  /**
   * Copies `data-row-height`/`data-estimated-row-height` into CSS variables where the browser's
   * CSS cannot read typed `attr()` itself (docs/HTML.md).
   * @param {HTMLTableElement} table
   */
  function copyRowHeights(table) {
    if (window.CSS && CSS.supports('height: attr(data-row-height px)')) return;
    const set = (/** @type {string} */ name, /** @type {string|undefined} */ value) => {
      if (value && Number.isFinite(Number(value))) table.style.setProperty(name, Number(value) + 'px');
    };
    set('--row-height', table.dataset.rowHeight);
    set('--estimated-row-height', table.dataset.estimatedRowHeight);
  }

  /**
   * The rows of a section's `<tbody>` (not its header, footer or leaving rows).
   * @param {HTMLTableSectionElement} tbody
   * @returns {HTMLTableRowElement[]}
   */
  const rowsOf = (tbody) => Array.from(tbody.rows).filter((r) => r.hasAttribute('data-row'));

  const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

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
   * A duplicate-free copy of a view document: the first section or row with a key wins.
   * @param {*} doc
   * @returns {ViewDoc}
   */
  function normalizeDoc(doc) {
    const seenSections = new Set();
    const seenRows = new Set();
    const sections = [];
    for (const s of (doc && Array.isArray(doc.sections)) ? doc.sections : []) {
      if (!s || seenSections.has(s.key)) continue;
      seenSections.add(s.key);
      const rows = (Array.isArray(s.rows) ? s.rows : [])
        .filter((/** @type {ViewRow} */ r) => r && !seenRows.has(r.key) && seenRows.add(r.key));
      sections.push(Object.assign({}, s, { header: s.header ?? null, footer: s.footer ?? null, rows }));
    }
    return Object.assign({}, doc, { sections });
  }

  /**
   * @param {ViewDoc} doc
   */
  const rowCount = (doc) => doc.sections.reduce((n, s) => n + s.rows.length, 0);

  /**
   * The view-link key of the page's own URL (`?key=…`, docs/ACCESS.md), or null. A browser
   * cannot send a token with an EventSource, so a private list opened through a view link is
   * read with this key on every request (pages, the stream, `more`).
   * @returns {?string}
   */
  function pageKey() {
    try { return new URLSearchParams(location.search).get('key'); } catch (e) { return null; }
  }

  // ---------------------------------------------------------------------------------------
  // One enhanced table, in parts. Each part owns its state; the parts reach each other only
  // through the `ListView` that made them (a thin coordinator):
  //   TableParts     finds the table's bodies and rows, dispatches its events (no state)
  //   Announcer      the polite live region after the table
  //   SectionToggles collapsed state by section key
  //   Motion         scroll anchoring and row animations around every DOM change
  //   DomSync        the markup each element came from; brings the DOM in line with a document
  //   Pager          tail loading: cursor, page size, retries, the pagination row, `more`
  //   LiveStream     the EventSource, its subscription, last event id and reconnects
  //   ListView       the view document, deletion, user input, the back/forward cache

  /** Read-only queries of one table's DOM, and its events. */
  class TableParts {
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

  // ---------------------------------------------------------------------------------------

  /** The polite `role="status"` region after the table. */
  class Announcer {
    /**
     * @param {HTMLTableElement} table
     */
    constructor(table) {
      const region = document.createElement('div');
      region.className = 'list-announcer';
      region.setAttribute('role', 'status');
      region.setAttribute('aria-live', 'polite');
      region.setAttribute('aria-atomic', 'true');
      table.after(region);
      this.region = region;
    }

    /**
     * Says `message` politely (repeated messages are said again).
     * @param {string} message
     */
    say(message) {
      this.region.textContent = this.region.textContent === message ? message + '\u00a0' : message;
    }

    /**
     * "N more rows loaded" (nothing for 0).
     * @param {number} n
     */
    moreLoaded(n) {
      if (n) this.say(`${n} more ${n === 1 ? 'row' : 'rows'} loaded`);
    }

    /**
     * "2 rows added, 1 row removed" (nothing when neither).
     * @param {number} added
     * @param {number} removed
     */
    changed(added, removed) {
      const parts = [];
      if (added) parts.push(`${added} ${added === 1 ? 'row' : 'rows'} added`);
      if (removed) parts.push(`${removed} ${removed === 1 ? 'row' : 'rows'} removed`);
      if (parts.length) this.say(parts.join(', '));
    }
  }

  // ---------------------------------------------------------------------------------------

  /** Collapsed state by section key; the client's choice outlives header updates. */
  class SectionToggles {
    /**
     * @param {TableParts} parts
     */
    constructor(parts) {
      this.parts = parts;
      this.collapsed = /** @type {Map<string, boolean>} */ (new Map());
    }

    /**
     * Collapses or expands a section (flips it when `collapsed` is omitted).
     * @param {string} key
     * @param {boolean=} collapsed
     */
    toggle(key, collapsed) {
      const tbody = this.parts.sectionBody(key);
      if (!tbody) return;
      this.collapsed.set(key, collapsed ?? !this.collapsed.get(key));
      this.apply(tbody);
    }

    /**
     * Brings a section's toggle and classes (`collapsible`, `collapsed`, as the renderer writes
     * them) in line with the collapsed state; the first time a key is seen, its toggle's
     * `aria-expanded` sets the state.
     * @param {HTMLTableSectionElement} tbody
     */
    apply(tbody) {
      const key = tbody.dataset.section || '';
      const button = tbody.querySelector(':scope > tr.section-header button[aria-expanded]');
      if (!button) {
        if (!tbody.classList.contains('continued')) tbody.classList.remove('collapsed', 'list-collapsed');
        return;
      }
      let collapsed = this.collapsed.get(key);
      if (collapsed === undefined) {
        collapsed = button.getAttribute('aria-expanded') === 'false';
        this.collapsed.set(key, collapsed);
      }
      button.setAttribute('aria-expanded', String(!collapsed));
      const controls = button.getAttribute('aria-controls');
      if (controls && !tbody.id) tbody.id = controls;
      tbody.classList.add('collapsible');
      tbody.classList.toggle('collapsed', collapsed);
      tbody.classList.toggle('list-collapsed', collapsed); // what list.css hides
    }
  }

  // ---------------------------------------------------------------------------------------

  /** Scroll anchoring and row animations (FLIP slides, enter and leave) around DOM changes. */
  class Motion {
    /**
     * @param {TableParts} parts
     * @param {typeof DEFAULTS} config
     */
    constructor(parts, config) {
      this.parts = parts;
      this.config = config;
      this.busy = 0; // animations whose cleanup has not run yet
      /** Row tops measured before the running DOM change (when animating). */
      this.measured = /** @type {Map<Element, number>} */ (new Map());
      /** The latest slide of each row, so an older slide's cleanup leaves a newer one alone. */
      this.flips = /** @type {WeakMap<Element, object>} */ (new WeakMap());
    }

    animating() {
      return this.config.animate && !reducedMotion();
    }

    /**
     * Whether `el` was on (or just above) the screen before the running change.
     * @param {Element} el
     */
    wasVisible(el) {
      const top = this.measured.get(el);
      return top !== undefined && top > -100 && top < window.innerHeight;
    }

    /**
     * Runs `fn` after the row animations' time.
     * @param {() => void} fn
     */
    later(fn) {
      this.busy++;
      window.setTimeout(() => { this.busy--; fn(); }, this.config.animationMs + 20);
    }

    /**
     * Runs a DOM change keeping the first visible row where it was on screen (when rows change
     * above the viewport) and sliding rows that moved to their new place (FLIP).
     * @template {?{entered: Element[]}} R
     * @param {() => R} change
     * @returns {R}
     */
    mutate(change) {
      const animate = this.animating();
      const margin = animate ? window.innerHeight : 0;
      const before = this.rowsNear(margin);
      const anchors = this.anchors(before);
      this.measured = animate ? before : new Map();
      const result = change();
      this.measured = new Map();
      this.compensate(anchors);
      if (animate) this.flip(before, this.rowsNear(margin), result ? result.entered : []);
      return result;
    }

    /**
     * The visible rows within `margin` px of the viewport with their tops, in page order. Binary
     * search per section keeps this to a few dozen measurements however long the table is.
     * @param {number} margin
     * @returns {Map<Element, number>}
     */
    rowsNear(margin) {
      const low = -margin;
      const high = window.innerHeight + margin;
      const out = new Map();
      for (const tbody of this.parts.sectionBodies()) {
        if (tbody.classList.contains('list-collapsed')) continue;
        const box = tbody.getBoundingClientRect();
        if (box.height === 0 || box.bottom < low || box.top > high) continue;
        const rows = rowsOf(tbody);
        let lo = 0;
        let hi = rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (rows[mid].getBoundingClientRect().bottom < low) lo = mid + 1;
          else hi = mid;
        }
        for (let i = lo; i < rows.length; i++) {
          const rect = rows[i].getBoundingClientRect();
          if (rect.top > high) break;
          if (rect.height > 0) out.set(rows[i], rect.top);
        }
      }
      return out;
    }

    /**
     * Up to three rows whose tops are on screen, when the page is scrolled.
     * @param {Map<Element, number>} near rows near the viewport with their tops
     */
    anchors(near) {
      const scroller = document.scrollingElement;
      if (!scroller || scroller.scrollTop === 0) return [];
      const found = [];
      for (const [el, top] of near) {
        if (top < 0) continue;
        if (top >= window.innerHeight || found.length === 3) break;
        found.push({ el, top });
      }
      return found;
    }

    /**
     * Scrolls by however much the first surviving anchor moved.
     * @param {{el: Element, top: number}[]} anchors
     */
    compensate(anchors) {
      for (const { el, top } of anchors) {
        if (!el.isConnected || !el.hasAttribute('data-row')) continue;
        const rect = el.getBoundingClientRect();
        if (rect.height === 0) continue;
        const delta = rect.top - top;
        if (Math.abs(delta) >= 1) window.scrollBy(0, delta);
        return;
      }
    }

    /**
     * Slides rows from their old tops to their new ones; new rows fade in.
     * @param {Map<Element, number>} before tops before the change
     * @param {Map<Element, number>} after tops after it
     * @param {Element[]} entered
     */
    flip(before, after, entered) {
      /** @type {HTMLElement[]} */
      const moved = [];
      const token = {};
      for (const [tr, top] of after) {
        const old = before.get(tr);
        if (old === undefined) continue;
        const dy = old - top;
        if (Math.abs(dy) < 1) continue;
        const el = /** @type {HTMLElement} */ (tr);
        el.style.transition = 'none';
        el.style.transform = `translateY(${dy}px)`;
        this.flips.set(el, token);
        moved.push(el);
      }
      for (const el of entered) el.classList.add('list-enter');
      if (!moved.length && !entered.length) return;
      void this.parts.table.offsetHeight; // apply the starting transforms before transitioning
      for (const el of moved) {
        el.style.transition = `transform ${this.config.animationMs}ms ease`;
        el.style.transform = '';
      }
      this.later(() => {
        for (const el of moved) {
          if (this.flips.get(el) !== token) continue; // a later slide owns it now
          el.style.transition = '';
          if (el.getAttribute('style') === '') el.removeAttribute('style');
        }
        for (const el of entered) {
          el.classList.remove('list-enter');
          if (el.getAttribute('class') === '') el.removeAttribute('class');
        }
      });
    }
  }

  // ---------------------------------------------------------------------------------------

  /** Reads the view document off the page and reconciles the DOM with later documents by key. */
  class DomSync {
    /**
     * @param {TableParts} parts
     * @param {SectionToggles} toggles
     * @param {Motion} motion
     */
    constructor(parts, toggles, motion) {
      this.parts = parts;
      this.toggles = toggles;
      this.motion = motion;
      /** Markup each element was made from, to tell unchanged rows from changed ones. */
      this.source = /** @type {WeakMap<Element, string>} */ (new WeakMap());
      /** Server-rendered elements whose source is their serialized form, not the server's bytes. */
      this.pristine = /** @type {WeakSet<Element>} */ (new WeakSet());
    }

    /**
     * Remembers a server-rendered element's markup (as serialized) and returns it.
     * @param {Element} el
     */
    remember(el) {
      const html = el.outerHTML;
      this.source.set(el, html);
      this.pristine.add(el);
      return html;
    }

    /**
     * The view document the server-rendered table shows.
     * @returns {ViewDoc}
     */
    readDocument() {
      const t = this.parts.table;
      const mark = (/** @type {?Element} */ el) => (el ? this.remember(el) : null);
      const status = this.parts.statusBody();
      return normalizeDoc({
        title: t.caption ? t.caption.textContent : '',
        head: mark(t.tHead && t.tHead.rows[0]),
        sections: this.parts.sectionBodies().map((tb) => ({
          key: tb.dataset.section,
          header: mark(tb.querySelector(':scope > tr.section-header')),
          footer: mark(tb.querySelector(':scope > tr.section-footer')),
          rows: rowsOf(tb).map((tr) => ({ key: tr.dataset.row, html: mark(tr) })),
        })),
        status: mark(status),
        more: !!this.parts.paginationBody(),
        until: t.dataset.cursor || null,
      });
    }

    /**
     * Whether `el` shows `html` already.
     * @param {?Element} el
     * @param {string} html
     */
    same(el, html) {
      if (!el) return false;
      const source = this.source.get(el);
      if (source === html) return true;
      if (this.pristine.has(el) && parseElement(html).outerHTML === source) {
        this.source.set(el, html);
        this.pristine.delete(el);
        return true;
      }
      return false;
    }

    /**
     * `el` when it shows `html`, else a new element made from it.
     * @param {?Element} el
     * @param {string} html
     */
    reuse(el, html) {
      if (el && this.same(el, html)) return el;
      const made = parseElement(html);
      this.source.set(made, html);
      return made;
    }

    /**
     * Changes the table's DOM to show `doc`, keeping every element whose markup is unchanged.
     * @param {ViewDoc} doc
     * @param {boolean} loading a page is loading (the table stays `aria-busy`)
     * @returns {SyncStats}
     */
    sync(doc, loading) {
      this.syncHead(doc);
      const stats = this.syncSections(doc.sections);
      const sections = this.parts.sectionBodies();
      const t = this.parts.table;
      this.syncStatus(doc.status ?? null, sections[sections.length - 1] || t.tHead || t.caption, loading);
      return stats;
    }

    /**
     * The caption's text and the head row.
     * @param {ViewDoc} doc
     */
    syncHead(doc) {
      const t = this.parts.table;
      if (typeof doc.title === 'string') {
        const caption = t.caption || t.createCaption();
        // A page's caption holds its <h1>: keep the heading, change its text.
        const target = caption.querySelector(':scope > h1') || caption;
        if (target.textContent !== doc.title) target.textContent = doc.title;
      }
      if (typeof doc.head === 'string') {
        const thead = t.tHead || t.createTHead();
        const old = thead.rows[0] || null;
        const row = this.reuse(old, doc.head);
        if (row !== old) old ? old.replaceWith(row) : thead.append(row);
      }
    }

    /**
     * Orders the section `<tbody>`s and their rows by key: unchanged rows stay the same
     * elements (moved if needed), changed ones are replaced, removed ones leave.
     * @param {ViewSection[]} sections
     * @returns {SyncStats}
     */
    syncSections(sections) {
      const t = this.parts.table;
      const stale = new Set(this.parts.sectionBodies());
      const bodies = new Map([...stale].reverse().map((b) => [b.dataset.section, b]));
      /** @type {Map<string, Element>} */
      const rows = new Map();
      for (const tr of Array.from(this.parts.rows()).reverse()) {
        rows.set(tr.getAttribute('data-row') || '', tr);
      }
      /** @type {SyncStats} */
      const stats = { added: 0, removed: 0, entered: [], replaced: new Set() };
      const plans = [];
      let previous = /** @type {?Element} */ (t.tHead || t.caption);
      for (const section of sections) {
        const key = domKey(section.key);
        let tbody = bodies.get(key);
        bodies.delete(key);
        if (tbody) stale.delete(tbody);
        else {
          tbody = document.createElement('tbody');
          tbody.setAttribute('data-section', key);
        }
        const next = previous ? previous.nextElementSibling : t.firstElementChild;
        if (next !== tbody) t.insertBefore(tbody, next);
        previous = tbody;
        const wanted = this.wantedChildren(tbody, section, rows, stats);
        this.arrange(tbody, wanted);
        plans.push({ tbody, keep: new Set(wanted) });
      }
      const keys = new Set(sections.flatMap((s) => s.rows.map((r) => domKey(r.key))));
      for (const [key] of rows) if (!keys.has(key)) stats.removed++;
      for (const { tbody, keep } of plans) {
        for (const child of Array.from(tbody.children)) {
          if (!keep.has(child)) this.discard(child, stats.replaced.has(child));
        }
        this.toggles.apply(tbody);
      }
      for (const tbody of stale) tbody.remove();
      return stats;
    }

    /**
     * The elements a section's `<tbody>` should hold, reusing unchanged ones.
     * @param {HTMLTableSectionElement} tbody
     * @param {ViewSection} section
     * @param {Map<string, Element>} rows the table's row elements by key
     * @param {SyncStats} stats
     */
    wantedChildren(tbody, section, rows, stats) {
      const wanted = [];
      if (section.header !== null) wanted.push(this.reuse(tbody.querySelector(':scope > tr.section-header'), section.header));
      for (const row of section.rows) {
        const old = rows.get(domKey(row.key)) || null;
        const el = this.reuse(old, row.html);
        if (el !== old) {
          if (old) stats.replaced.add(old);
          else { stats.added++; stats.entered.push(el); }
        }
        wanted.push(el);
      }
      if (section.footer !== null) wanted.push(this.reuse(tbody.querySelector(':scope > tr.section-footer'), section.footer));
      return wanted;
    }

    /**
     * Puts `wanted` in order inside `tbody`; other children keep their place for now.
     * @param {HTMLTableSectionElement} tbody
     * @param {Element[]} wanted
     */
    arrange(tbody, wanted) {
      const set = new Set(wanted);
      let current = tbody.firstElementChild;
      for (const el of wanted) {
        while (current && !set.has(current)) current = current.nextElementSibling;
        if (current === el) { current = current.nextElementSibling; continue; }
        tbody.insertBefore(el, current);
      }
    }

    /**
     * Removes a row; a visible removed row fades out first when animating.
     * @param {Element} el
     * @param {boolean} wasReplaced
     */
    discard(el, wasReplaced) {
      if (el.classList.contains('list-leave')) return; // already leaving
      const motion = this.motion;
      if (wasReplaced || !el.hasAttribute('data-row') || !motion.animating() || !motion.wasVisible(el)) {
        el.remove();
        return;
      }
      el.removeAttribute('data-row');
      el.setAttribute('aria-hidden', 'true');
      el.classList.add('list-leave');
      motion.later(() => motion.mutate(() => { el.remove(); return null; }));
    }

    /**
     * @param {?string} status
     * @param {?Element} after
     * @param {boolean} loading
     */
    syncStatus(status, after, loading) {
      const t = this.parts.table;
      const old = this.parts.statusBody();
      const el = status === null ? null : this.reuse(old, status);
      if (old && el !== old) old.remove();
      if (el) {
        const next = after ? after.nextElementSibling : t.querySelector(':scope > tbody');
        if (next !== el) t.insertBefore(el, next);
      }
      this.parts.setBusy(loading || !!(el && el.classList.contains('state-loading')));
    }
  }

  // ---------------------------------------------------------------------------------------

  /**
   * Tail loading: one page at a time, by `POST …/more` while subscribed, else `GET …/rows`;
   * retries with backoff; the pagination row (link, spinner, error) and its observer.
   */
  class Pager {
    /**
     * @param {ListView} view
     */
    constructor(view) {
      this.view = view;
      this.parts = view.parts;
      this.config = view.config;
      const next = this.parts.nextHref();
      /** The cursor after the last row shown, or null when unknown. */
      this.cursor = view.table.dataset.cursor || afterParam(next);
      this.pageSize = this.config.pageSize || Number(new URLSearchParams((next || '').split('?')[1] || '').get('limit')) || 50;
      this.windowByCount = false; // true once the window grew past a cursor the client knows
      this.fetched = /** @type {Set<string>} */ (new Set()); // cursors whose page arrived
      this.loading = false;
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
      this.view.table.dataset.cursor = cursor;
      this.windowByCount = !known;
    }

    /** Watches the pagination row; a fresh observation also fires when it is already in view. */
    observe() {
      this.observer.disconnect();
      const body = this.parts.paginationBody();
      if (body && !this.loading && !this.view.deleted) this.observer.observe(body);
    }

    /** Loads the next page unless one is loading or none remains. */
    loadMore() {
      if (this.loading || this.view.deleted || !this.parts.paginationBody()) return;
      this.loading = true;
      this.attempt = 0;
      this.observer.disconnect();
      this.showPagination('loading');
      this.parts.dispatch('list:paginationstarted', this.parts.lastRowPath());
      this.tryLoad();
    }

    /** One attempt: through the subscription when there is one, else a GET fragment. */
    tryLoad() {
      const live = this.view.live;
      this.awaitingReset = false;
      if (live.subscription && live.isOpen()) {
        this.requestMore(live.subscription);
      } else if (!this.windowByCount) {
        this.fetchPage();
      } else if (this.config.live && typeof EventSource === 'function') {
        // The window grew past any cursor known here: only a subscription can continue it.
        // Wait for the stream that is connecting, else open a fresh one (it sends a reset).
        this.awaitingReset = true;
        if (!live.isConnecting()) live.restart(false);
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
      if (this.loading && this.awaitingReset && this.view.live.subscription && !this.pendingMore) this.tryLoad();
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

    /** The list was deleted: stops loading for good. */
    stop() {
      clearTimeout(this.retryTimer);
      if (this.pendingMore) clearTimeout(this.pendingMore.timer);
      this.pendingMore = null;
      if (this.loading) this.parts.dispatch('list:paginationfailed', { error: 'deleted' });
      this.loading = false;
      this.observer.disconnect();
      this.parts.paginationBody()?.remove();
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
        const url = this.view.withKey(`${this.view.base}/rows?after=${encodeURIComponent(cursor)}&limit=${this.pageSize}`);
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
      this.view.live.grewOutside();
      this.loadFinished(first);
      this.view.live.restartIfOpen(); // the window grew outside the stream
    }

    /**
     * Appends a `GET …/rows` fragment: continued sections' rows join their tbody.
     * @param {string} html
     * @param {?string} link the `Link` header (rel=next: the next page)
     * @param {?string} listCursor the optional `List-Cursor` header: the cursor after the last row
     * @returns {?Element} the first new row
     */
    appendFragment(html, link, listCursor) {
      const { parts, view } = this;
      template.innerHTML = html;
      const bodies = Array.from(template.content.children).filter((el) => el.tagName === 'TBODY');
      let first = /** @type {?Element} */ (null);
      let nextBody = /** @type {?HTMLTableSectionElement} */ (null);
      let added = 0;
      const shown = parts.shownKeys();
      view.motion.mutate(() => {
        for (const body of bodies) {
          document.adoptNode(body);
          if (body.classList.contains('pagination')) { nextBody = /** @type {HTMLTableSectionElement} */ (body); continue; }
          const key = body.getAttribute('data-section');
          const existing = parts.sectionBody(key);
          for (const tr of body.querySelectorAll(':scope > tr')) {
            const rowKey = tr.getAttribute('data-row');
            if (rowKey !== null && shown.has(rowKey)) { tr.remove(); continue; } // moved during the walk
            if (rowKey !== null) { shown.add(rowKey); added++; first = first || tr; }
            view.dom.remember(tr);
          }
          if (existing) existing.append(...Array.from(body.children));
          else view.table.insertBefore(body, parts.statusBody() || parts.paginationBody());
          if (key !== null) view.toggles.apply(/** @type {HTMLTableSectionElement} */ (existing || body));
        }
        return null;
      });
      const next = nextLink(link) || nextBody?.querySelector('a[rel~="next"]')?.getAttribute('href') || null;
      const cursor = afterParam(next);
      if (nextBody && cursor) {
        this.linkRow = nextBody.rows[0] || this.linkRow;
        this.cursor = cursor;
        view.table.dataset.cursor = cursor;
      } else {
        parts.paginationBody()?.remove();
        if (listCursor) {
          this.cursor = listCursor;
          view.table.dataset.cursor = listCursor;
        }
        this.windowByCount = !listCursor; // without it the cursor after the last row is unknown
      }
      view.announcer.moreLoaded(added);
      return first;
    }

    /**
     * Asks the subscription for more rows; they arrive as `add` operations in the stream.
     * @param {string} sub
     */
    async requestMore(sub) {
      const rows = this.view.doc.sections.flatMap((s) => s.rows);
      this.pendingMore = {
        rows: rows.length,
        lastKey: rows.length ? rows[rows.length - 1].key : null,
        timer: window.setTimeout(() => this.moreFailed(new Error('timed out')), this.config.moreTimeout),
      };
      const pending = this.pendingMore;
      const cursorBefore = this.cursor;
      try {
        const url = this.view.withKey(`${this.view.base}/subscriptions/${encodeURIComponent(sub)}/more?limit=${this.pageSize}`);
        const response = await fetch(url, { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (response.status === 404 || response.status === 410) this.view.live.subscription = null; // retry by GET
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
      const table = this.view.table;
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
      const table = this.view.table;
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

  // ---------------------------------------------------------------------------------------

  /**
   * The `view=html` EventSource: its subscription id, the last event id, reconnects with
   * backoff and `since`. Resets and patches go to the view; a lost stream tells the pager.
   */
  class LiveStream {
    /**
     * @param {ListView} view
     */
    constructor(view) {
      this.view = view;
      this.config = view.config;
      /** @type {?EventSource} */
      this.source = null;
      /** @type {?string} */
      this.subscription = null;
      this.lastId = view.table.dataset.version || '';
      this.stale = false; // the view document misses rows that came from GET pages
      this.reconnects = 0;
      this.reconnectTimer = 0;
      this.resumeOnShow = false; // reconnect when the page returns from the back/forward cache
    }

    isOpen() {
      return !!this.source && this.source.readyState === EventSource.OPEN;
    }

    isConnecting() {
      return !!this.source && this.source.readyState === EventSource.CONNECTING;
    }

    /**
     * Opens the stream; `resume` asks to continue after the last event id.
     * @param {boolean} resume
     */
    connect(resume) {
      const { view } = this;
      if (view.deleted || this.source) return;
      const pager = view.pager;
      const params = new URLSearchParams({ view: 'html' });
      if (pager.cursor && !pager.windowByCount) params.set('until', pager.cursor);
      else params.set('limit', String(view.table.querySelectorAll('tr[data-row]').length));
      if (resume && !this.stale && this.lastId) params.set('since', this.lastId);
      const stream = new EventSource(view.withKey(`${view.base}/events?${params}`));
      this.source = stream;
      const on = (/** @type {string} */ type, /** @type {(e: MessageEvent) => void} */ fn) =>
        stream.addEventListener(type, (e) => { if (this.source === stream) fn(/** @type {MessageEvent} */ (e)); });
      // The backoff restarts once the stream delivers (not on open: a server may accept and drop).
      on('reset', (e) => this.onReset(e));
      on('patch', (e) => this.onPatch(e));
      on('subscription', (e) => {
        try { this.subscription = JSON.parse(e.data).subscription || this.subscription; } catch (err) { return; }
        this.reconnects = 0;
        if (params.has('since')) view.pager.resumeLoad(); // a resumed stream may send nothing more
      });
      on('deleted', () => view.onDeleted());
      on('error', () => this.onError());
    }

    /** Closes the stream (kept state lets `connect` resume). */
    disconnect() {
      if (this.source) this.source.close();
      this.source = null;
      this.subscription = null;
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = 0;
    }

    /**
     * Closes and reopens the stream (a pending `more` fails: its rows would not come).
     * @param {boolean} resume
     */
    restart(resume) {
      this.disconnect();
      const pager = this.view.pager;
      if (pager.pendingMore) pager.moreFailed(new Error('stream restarted'));
      this.connect(resume);
    }

    /** Rows came from a GET page: the next stream must start with a reset, not `since`. */
    grewOutside() {
      this.stale = true;
    }

    /** Reopens the stream (for a reset) if one is open or connecting. */
    restartIfOpen() {
      if (this.source) this.restart(false);
    }

    /** A delivered event: the reconnect backoff starts over. */
    delivered() {
      this.reconnects = 0;
    }

    onError() {
      // The browser would retry by itself with the stale URL: retry here, with backoff and `since`.
      this.disconnect();
      this.view.pager.streamLost();
      const delay = Math.min(this.config.reconnectMax, this.config.reconnectBase * 2 ** this.reconnects++);
      this.reconnectTimer = window.setTimeout(() => {
        this.reconnectTimer = 0;
        this.connect(true);
      }, delay * (0.75 + Math.random() / 4));
    }

    /**
     * @param {MessageEvent} e
     */
    onReset(e) {
      let data;
      try { data = JSON.parse(e.data); } catch (err) { this.restart(false); return; }
      this.subscription = data.subscription || null;
      this.stale = false;
      this.view.update(normalizeDoc(data.doc), e.lastEventId || String(data.version ?? ''), true);
      this.view.pager.resumeLoad();
    }

    /**
     * @param {MessageEvent} e
     */
    onPatch(e) {
      let doc;
      try {
        doc = normalizeDoc(applyPatch(this.view.doc, JSON.parse(e.data)));
      } catch (err) {
        this.view.parts.dispatch('list:resync', { error: String(err && /** @type {Error} */ (err).message) });
        this.restart(false); // ask for a reset
        return;
      }
      this.view.update(doc, e.lastEventId);
    }

    /** Closes the stream for the back/forward cache, noting whether to reconnect on return. */
    suspend() {
      this.resumeOnShow = !!this.source || this.reconnectTimer !== 0;
      this.disconnect();
    }

    resume() {
      if (this.resumeOnShow) this.connect(true);
    }
  }

  // ---------------------------------------------------------------------------------------

  /** One enhanced table: owns the view document and deletion; wires the parts together. */
  class ListView {
    /**
     * @param {HTMLTableElement} table
     * @param {typeof DEFAULTS} config
     */
    constructor(table, config) {
      this.table = table;
      this.config = config;
      this.id = table.dataset.list || '';
      this.base = config.base + encodeURIComponent(this.id);
      this.key = pageKey();
      this.deleted = false;
      this.parts = new TableParts(table);
      this.toggles = new SectionToggles(this.parts);
      this.motion = new Motion(this.parts, config);
      this.dom = new DomSync(this.parts, this.toggles, this.motion);
      /** The view document the DOM shows (docs/LIVE.md); patches apply to it. */
      this.doc = this.dom.readDocument();
      this.pager = new Pager(this);
      this.live = new LiveStream(this);
      this.announcer = new Announcer(table);
      this.parts.sectionBodies().forEach((tb) => this.toggles.apply(tb));
      table.style.overflowAnchor = 'none'; // this client anchors the scroll itself
      table.classList.add('list-enhanced'); // list-client.css hides collapsed rows only then
      copyRowHeights(table);
      table.addEventListener('click', (e) => this.onClick(e));
      this.pager.observe();
      if (config.live && typeof EventSource === 'function') this.live.connect(true);
    }

    /**
     * `url` (which has a query) with the page's view-link key, if it has one.
     * @param {string} url
     */
    withKey(url) {
      return this.key === null ? url : `${url}&key=${encodeURIComponent(this.key)}`;
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
      this.table.removeAttribute('aria-busy');
      this.announcer.say('This list was deleted.');
      this.parts.dispatch('list:deleted', null);
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

  // ---------------------------------------------------------------------------------------
  // The public object

  const views = /** @type {WeakMap<Element, ListView>} */ (new WeakMap());
  const all = /** @type {ListView[]} */ ([]);
  const script = /** @type {?HTMLScriptElement} */ (document.currentScript);
  const config = Object.assign({}, DEFAULTS, /** @type {*} */ (window).ListClientConfig || {});

  /** Loads list-client.css from beside this script unless the page already links it. */
  function loadStylesheet() {
    if (!config.stylesheet || !script || !script.src || document.querySelector('link[href*="list-client.css"]')) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('list-client.css', script.src).href;
    document.head.append(link);
  }

  /**
   * Enhances every `table.list[data-list]` under `root` (once each).
   * @param {ParentNode=} root
   * @returns {ListView[]}
   */
  function enhance(root = document) {
    const out = [];
    for (const table of root.querySelectorAll('table.list[data-list]')) {
      if (!views.has(table)) {
        const view = new ListView(/** @type {HTMLTableElement} */ (table), config);
        views.set(table, view);
        all.push(view);
      }
      out.push(/** @type {ListView} */ (views.get(table)));
    }
    return out;
  }

  window.addEventListener('pagehide', (e) => { if (e.persisted) all.forEach((v) => v.suspend()); });
  window.addEventListener('pageshow', (e) => { if (e.persisted) all.forEach((v) => v.resume()); });

  /** @type {*} */ (window).ListClient = Object.freeze({
    config,
    enhance,
    /**
     * The view enhancing `table`, if any.
     * @param {Element} table
     */
    get: (table) => views.get(table) || null,
    applyPatch,
    PatchError,
  });

  loadStylesheet();
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => enhance());
  else enhance();
})();
