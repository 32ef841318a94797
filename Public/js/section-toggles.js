// section-toggles.js: the collapsed state of sections by key, and their toggle buttons and classes.
// Layer 3 (Public/js/README.md). Imports: table-parts.js (types only).

/** @typedef {import('./table-parts.js').TableParts} TableParts */

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
  }
}
