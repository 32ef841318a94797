// motion.js: scroll anchoring and row animations (FLIP slides, enter and leave) around every DOM
// change. Layer 3 (Public/js/README.md). Imports: markup.js (rowsOf, reducedMotion);
// table-parts.js and config.js (types only).

import { reducedMotion, rowsOf } from './markup.js';

/** @typedef {import('./table-parts.js').TableParts} TableParts */
/** @typedef {import('./config.js').Config} Config */

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
