// config.js: the client's tunables and their defaults (docs/CLIENT.md); the entry module merges
// `window.ListClientConfig` over them. Layer 0 (Public/js/README.md). Imports nothing.

/** Tunables; override with `window.ListClientConfig = {...}` before the client runs. */
export const DEFAULTS = {
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
  stylesheet: true, // load list-client.css (Public/) unless the page has it
  searchDelay: 300, // ms of pause in typing before the search field's view is fetched
};

/** @typedef {typeof DEFAULTS} Config */
