// main.js: the client's entry module (docs/CLIENT.md), loaded by the page as
// `<script type="module" src="/assets/js/main.js">` (deferred, as module scripts are): merges
// `window.ListClientConfig` over the defaults, enhances every `table.list[data-list]`, handles the
// back/forward cache, and exposes `window.ListClient`; on the index of lists, keeps
// `table.list.index[data-live]` live (index-view.js). No dependencies, no build step, no eval:
// works under `script-src 'self'`. The modules and their layering: Public/js/README.md.
// Layer 5. Imports: config.js (DEFAULTS), json-patch.js (applyPatch, PatchError), list-view.js,
// view-controls.js, edit-mode.js (for a table the server marked `data-editable`), index-view.js;
// every other module for its fetch only (below).

import { DEFAULTS } from './config.js';
import { applyPatch, PatchError } from './json-patch.js';
import { EditMode } from './edit-mode.js';
import { ListView } from './list-view.js';
import { ViewControls } from './view-controls.js';
import { IndexView } from './index-view.js';
// The other modules too, for speed only: the browser then finds them all as soon as main.js
// arrives and fetches them at once, instead of level by level through the imports (five levels:
// main, list-view, pager, rows, json-patch). They evaluate once each, dependencies first,
// whatever the order here.
import './edit-rows.js';
import './edit-writes.js';
import './live-stream.js';
import './pager.js';
import './rows.js';

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
      if (/** @type {HTMLElement} */ (table).dataset.editable === 'true') {
        new EditMode(/** @type {HTMLTableElement} */ (table), {
          base: view.base, key: view.key, announcer: view.announcer, inView: () => view.viewParameters !== '',
        });
      }
    }
    out.push(/** @type {ListView} */ (views.get(table)));
  }
  for (const table of root.querySelectorAll('table.list.index[data-live]')) {
    if (indexes.has(table)) continue;
    indexes.add(table);
    all.push(new IndexView(/** @type {HTMLTableElement} */ (table), config));
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
