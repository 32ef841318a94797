// view-doc.js: the `view=html` document the live stream's patches apply to (docs/LIVE.md): its
// types, de-duplication, row count, and keys as the DOM holds them. Layer 0 (Public/js/README.md).
// Imports nothing; touches no DOM.

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
