// dom-sync.js: reads the view document off the server-rendered table and brings the DOM in line
// with later documents by key, keeping every element whose markup is unchanged.
// Layer 4 (Public/js/README.md). Imports: markup.js (parseElement, rowsOf), view-doc.js
// (normalizeDoc, domKey); table-parts.js, section-toggles.js and motion.js (types only).

import { parseElement, rowsOf } from './markup.js';
import { domKey, normalizeDoc } from './view-doc.js';

/** @typedef {import('./view-doc.js').ViewDoc} ViewDoc */
/** @typedef {import('./view-doc.js').ViewSection} ViewSection */
/** @typedef {import('./table-parts.js').TableParts} TableParts */
/** @typedef {import('./section-toggles.js').SectionToggles} SectionToggles */
/** @typedef {import('./motion.js').Motion} Motion */
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
