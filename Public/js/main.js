// main.js: the client's entry module (docs/CLIENT.md), loaded by the page as
// `<script type="module" src="/assets/js/main.js">` (deferred, as module scripts are): merges
// `window.ListClientConfig` over the defaults, enhances every `table.list[data-list]`, handles the
// back/forward cache, and exposes `window.ListClient`; on the index of lists, keeps
// `table.list.index[data-live]` live (index-view.js). No dependencies, no build step, no eval:
// works under `script-src 'self'`. The modules and their layering: Public/js/README.md.
// Layer 5. Imports: config.js (DEFAULTS), json-patch.js (applyPatch, PatchError), list-view.js,
// view-controls.js; and only on a page that needs them (`import()`), edit-mode.js for a table the
// server marked `data-editable` and index-view.js for the live index. The page preloads what it
// needs of them (`<link rel="modulepreload">`), so that none waits for the one that imports it.

import { DEFAULTS } from './config.js';
import { applyPatch, PatchError } from './json-patch.js';
import { ListView } from './list-view.js';
import { ViewControls } from './view-controls.js';

/** @typedef {import('./index-view.js').IndexView} IndexView */

const views = /** @type {WeakMap<Element, ListView>} */ (new WeakMap());
const all = /** @type {(ListView|IndexView)[]} */ ([]);
const indexes = /** @type {WeakSet<Element>} */ (new WeakSet());
const config = Object.assign({}, DEFAULTS, /** @type {*} */ (window).ListClientConfig || {});

/** Loads list-client.css from the folder above this module (Public/) unless the page already links it. */
function loadStylesheet() {
  if (!config.stylesheet || document.querySelector('link[href*="list-client.css"]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('../list-client.css', import.meta.url).href;
  document.head.append(link);
}

/**
 * Enhances every `table.list[data-list]` under `root` (once each), and makes every index of
 * lists there with a `data-live` stream live.
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
      ViewControls.attach(view, config);
      // Only a reader who may write gets the editing mode (the page says so: API.md section 3).
      if (/** @type {HTMLElement} */ (table).dataset.editable === 'true') addEditMode(view);
    }
    out.push(/** @type {ListView} */ (views.get(table)));
  }
  for (const table of root.querySelectorAll('table.list.index[data-live]')) {
    if (indexes.has(table)) continue;
    indexes.add(table);
    load(import('./index-view.js'), 'the live index', ({ IndexView }) => {
      all.push(new IndexView(/** @type {HTMLTableElement} */ (table), config));
    });
  }
  return out;
}

/**
 * Gives `view`'s table the editing mode once edit-mode.js is in: a module only writers' pages
 * load (and preload), after the table is enhanced and its stream opened.
 * @param {ListView} view
 */
function addEditMode(view) {
  load(import('./edit-mode.js'), 'the editing mode', ({ EditMode }) => {
    new EditMode(view.table, {
      base: view.base, key: view.key, announcer: view.announcer, inView: () => view.viewParameters !== '',
    });
  });
}

/**
 * Runs `use` with a module imported on demand; a module that fails to load leaves the page as it
 * is (read-only, or an index that is not live), and says so on the console.
 * @template T
 * @param {Promise<T>} module
 * @param {string} what
 * @param {(module: T) => void} use
 */
function load(module, what, use) {
  module.then(use, (error) => console.error(`list client: ${what} did not load:`, error));
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
