// markup.js: DOM helpers shared by the parts: parsing the server's trusted markup, section rows,
// row heights, reduced motion. Layer 1 (Public/js/README.md). Imports: json-patch.js (PatchError).

import { PatchError } from './json-patch.js';

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
