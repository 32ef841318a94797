// urls.js: reading URLs and headers: a URL's `after` cursor, a `Link` header's rel=next, the
// page's view-link key. Layer 0 (Public/js/README.md). Imports nothing.

/**
 * The `after` parameter of a URL, or null.
 * @param {?string} url
 */
export function afterParam(url) {
  if (!url) return null;
  try { return new URL(url, location.href).searchParams.get('after'); } catch (e) { return null; }
}

/**
 * The rel=next URL of a `Link` header, or null.
 * @param {?string} header
 */
export function nextLink(header) {
  const match = header && /<([^>]*)>\s*;[^,]*rel="?next"?/.exec(header);
  return match ? match[1] : null;
}

/**
 * The view-link key of the page's own URL (`?key=…`, docs/ACCESS.md), or null. A browser
 * cannot send a token with an EventSource, so a private list opened through a view link is
 * read with this key on every request (pages, the stream, `more`).
 * @returns {?string}
 */
export function pageKey() {
  try { return new URLSearchParams(location.search).get('key'); } catch (e) { return null; }
}
