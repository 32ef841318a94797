// rows.js: row rendering and DOM patching for one table: the view document the live stream's
// patches apply to, reading it off the server-rendered table, and bringing the DOM in line with
// later documents by key (DomSync), with the parts that sync uses or that sit beside it: table
// queries and events (TableParts), section toggles, scroll anchoring and row animations (Motion),
// the polite live region (Announcer). Its classes reach each other only through the instances
// list-view.js hands them.
// Layer 1 (Public/js/README.md). Imports: json-patch.js (PatchError); config.js (types only).

import { PatchError } from './json-patch.js';

/** @typedef {import('./config.js').Config} Config */

/**
 * A count as the server writes numbers (`1,234`): whole, its digits grouped by threes. Not
 * `Intl.NumberFormat`, whose first use loads the locale data: 20 to 100 ms of a page's load.
 * @param {number} n
 * @returns {string}
 */
export const groupDigits = (n) => {
  const whole = Math.round(n);
  return (whole < 0 ? '-' : '') + String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ',');
};

// ---------------------------------------------------------------------------------------
// The view document (docs/LIVE.md): its types, de-duplication, row count, keys as the DOM holds them.

/** @typedef {{key: string, html: string}} ViewRow */
/** @typedef {{key: string, header: ?string, footer: ?string, rows: ViewRow[]}} ViewSection */
/**
 * The `view=html` document the stream's patches apply to (docs/LIVE.md); `until` is the
 * cursor that reopens the window (null when it holds no rows).
 * @typedef {{title?: string, head?: ?string, sections: ViewSection[], status?: ?string, more?: boolean, until?: ?string}} ViewDoc
 */
/** @typedef {{section: number, row: number}} IndexPath */

/**
 * A key as the page's `data-row`/`data-section` holds it: the HTML parser reads U+0000 as U+FFFD.
 * @param {string} key
 */
export const domKey = (key) => key.replace(/\u0000/g, '\ufffd');

/**
 * A duplicate-free copy of a view document: the first section or row with a key wins.
 * @param {*} doc
 * @returns {ViewDoc}
 */
export function normalizeDoc(doc) {
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
export const rowCount = (doc) => doc.sections.reduce((n, s) => n + s.rows.length, 0);

// ---------------------------------------------------------------------------------------
// Markup helpers: parsing the server's trusted markup, section rows, row heights, reduced motion.

export const template = document.createElement('template');

/**
 * Parses trusted server markup (a `<tr>` or `<tbody>`) into one element, through a
 * `<template>` so table parts keep their table parsing context. Scripts in it stay inert.
 * @param {string} html
 * @returns {HTMLElement}
 */
export function parseElement(html) {
  template.innerHTML = html;
  const el = template.content.firstElementChild;
  if (!el) throw new PatchError('markup without an element');
  return /** @type {HTMLElement} */ (document.adoptNode(el));
}

/**
 * The `id` the renderer gives a section's `<tbody>` (HTMLRenderer.sectionElementID).
 * @param {string} key
 */
export function sectionElementID(key) {
  return 'list-section-' + key.replace(/[\u0000-\u0020%\u007f]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

/**
 * Copies `data-row-height`/`data-estimated-row-height` into CSS variables where the browser's
 * CSS cannot read typed `attr()` itself (docs/HTML.md).
 * @param {HTMLTableElement} table
 */
export function copyRowHeights(table) {
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
export const rowsOf = (tbody) => Array.from(tbody.rows).filter((r) => r.hasAttribute('data-row'));

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// ---------------------------------------------------------------------------------------
// TableParts: read-only queries of one table's DOM, and its `list:*` events (no state).

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

// ---------------------------------------------------------------------------------------
// Announcer: the polite live region after the table.

/** The polite `role="status"` region after the table. */
export class Announcer {
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
// SectionToggles: collapsed state by section key, toggle buttons and classes.

/** Collapsed state by section key; the client's choice outlives header updates. */
export class SectionToggles {
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
    this.count(tbody, button);
  }

  /**
   * Writes how many rows the section holds into its toggle's `span.section-count` ("12 rows
   * hidden", which list.css shows while the section is collapsed), adding the span when the
   * header has none (the server renders none: HTML.md, "Collapsible sections").
   * @param {HTMLTableSectionElement} tbody
   * @param {Element} button
   */
  count(tbody, button) {
    const n = tbody.querySelectorAll(':scope > tr[data-row]').length;
    let span = button.querySelector(':scope > span.section-count');
    if (!span) {
      span = document.createElement('span');
      span.className = 'section-count';
      button.append(span);
    }
    const text = `${groupDigits(n)} ${n === 1 ? 'row' : 'rows'} hidden`;
    if (span.textContent !== text) span.textContent = text;
  }
}

// ---------------------------------------------------------------------------------------
// Motion: scroll anchoring and row animations (FLIP, enter, leave) around every DOM change.

/** Scroll anchoring and row animations (FLIP slides, enter and leave) around DOM changes. */
export class Motion {
  /**
   * @param {TableParts} parts
   * @param {Config} config
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
// DomSync: reads the view document off the table; keyed sync of the DOM with later documents.

/**
 * What a DOM sync did: rows added and removed (by key), new row elements, replaced elements.
 * @typedef {{added: number, removed: number, entered: Element[], replaced: Set<Element>}} SyncStats
 */

/** Reads the view document off the page and reconciles the DOM with later documents by key. */
export class DomSync {
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
      if (target.textContent !== doc.title) {
        // The page's tab shows the list's title too: it follows while it still matches the heading.
        if (target.tagName === 'H1' && document.title === target.textContent) document.title = doc.title;
        target.textContent = doc.title;
      }
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

/**
 * "N viewing" above the table (and above its view controls, which view-controls.js finds right
 * before the table): the `presence` count, a polite status said only when it changes.
 */
export class PresenceBadge {
  /**
   * @param {HTMLTableElement} table
   */
  constructor(table) {
    const badge = document.createElement('p');
    badge.className = 'list-presence';
    badge.setAttribute('role', 'status');
    badge.hidden = true;
    const controls = table.previousElementSibling;
    (controls && controls.matches('div.view-controls') ? controls : table).before(badge);
    this.badge = badge;
  }

  /**
   * Shows `viewers` (the text changes only when the count does).
   * @param {number} viewers
   */
  show(viewers) {
    const text = `${viewers} viewing`;
    if (this.badge.textContent !== text) this.badge.textContent = text;
    this.badge.hidden = false;
  }

  /** Hides the count: the stream that kept it current is gone. */
  hide() {
    this.badge.hidden = true;
    this.badge.textContent = '';
  }
}
