// live-stream.js: the `view=html` EventSource: its subscription id, the last event id, reconnects
// with backoff and `since`; patches applied to the view document (docs/LIVE.md).
// Layer 2 (Public/js/README.md). Imports: json-patch.js (applyPatch), rows.js (normalizeDoc;
// TableParts' type); config.js (types only). It never imports the pager: the view that wires
// them passes the pager's side in as callbacks (LiveHost).

import { applyPatch } from './json-patch.js';
import { normalizeDoc } from './rows.js';

/** @typedef {import('./rows.js').ViewDoc} ViewDoc */
/** @typedef {import('./rows.js').TableParts} TableParts */
/** @typedef {import('./config.js').Config} Config */
/**
 * What the stream asks of the view that wires it, and tells it.
 * @typedef {object} LiveHost
 * @property {string} base the list's URL (`/lists/{id}`)
 * @property {(url: string) => string} withKey `url` with the page's view-link key, if any
 * @property {() => boolean} deleted the list was deleted
 * @property {() => ViewDoc} doc the view document patches apply to
 * @property {() => ?string} until the cursor to subscribe until, or null to subscribe by row count
 * @property {(doc: ViewDoc, version: string, isReset: boolean) => void} onDocument a reset or patch brought a document
 * @property {() => void} onCurrent the stream is current (after a reset, or a resumed subscription)
 * @property {() => void} onRestart the stream closes to reopen: a pending `more` fails
 * @property {() => void} onLost the stream failed (it reconnects with backoff)
 * @property {() => void} onDeleted the list was deleted
 * @property {(viewers: number) => void} onPresence how many streams of the list are open (`presence`)
 */

/**
 * The `view=html` EventSource: its subscription id, the last event id, reconnects with
 * backoff and `since`. Resets and patches go to the view; a lost stream tells the pager.
 */
export class LiveStream {
  /**
   * @param {TableParts} parts
   * @param {Config} config
   * @param {LiveHost} host
   */
  constructor(parts, config, host) {
    this.parts = parts;
    this.config = config;
    this.host = host;
    /** @type {?EventSource} */
    this.source = null;
    /** @type {?string} */
    this.subscription = null;
    this.lastId = parts.table.dataset.version || '';
    this.stale = false; // the view document misses rows that came from GET pages
    this.reconnects = 0;
    this.reconnectTimer = 0;
    this.resumeOnShow = false; // reconnect when the page returns from the back/forward cache
  }

  isOpen() {
    return !!this.source && this.source.readyState === EventSource.OPEN;
  }

  isConnecting() {
    return !!this.source && this.source.readyState === EventSource.CONNECTING;
  }

  /**
   * Opens the stream; `resume` asks to continue after the last event id.
   * @param {boolean} resume
   */
  connect(resume) {
    const { host } = this;
    if (host.deleted() || this.source) return;
    const until = host.until();
    const params = new URLSearchParams({ view: 'html' });
    if (until) params.set('until', until);
    else params.set('limit', String(this.parts.table.querySelectorAll('tr[data-row]').length));
    if (resume && !this.stale && this.lastId) params.set('since', this.lastId);
    const stream = new EventSource(host.withKey(`${host.base}/events?${params}`));
    this.source = stream;
    const on = (/** @type {string} */ type, /** @type {(e: MessageEvent) => void} */ fn) =>
      stream.addEventListener(type, (e) => { if (this.source === stream) fn(/** @type {MessageEvent} */ (e)); });
    // The backoff restarts once the stream delivers (not on open: a server may accept and drop).
    on('reset', (e) => this.onReset(e));
    on('patch', (e) => this.onPatch(e));
    on('subscription', (e) => {
      try { this.subscription = JSON.parse(e.data).subscription || this.subscription; } catch (err) { return; }
      this.reconnects = 0;
      if (params.has('since')) host.onCurrent(); // a resumed stream may send nothing more
    });
    on('deleted', () => host.onDeleted());
    on('presence', (e) => {
      let viewers;
      try { viewers = JSON.parse(e.data).viewers; } catch (err) { return; }
      if (Number.isInteger(viewers) && viewers >= 0) host.onPresence(viewers);
    });
    on('error', () => this.onError());
  }

  /** Closes the stream (kept state lets `connect` resume). */
  disconnect() {
    if (this.source) this.source.close();
    this.source = null;
    this.subscription = null;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = 0;
  }

  /**
   * Closes and reopens the stream (a pending `more` fails: its rows would not come).
   * @param {boolean} resume
   */
  restart(resume) {
    this.disconnect();
    this.host.onRestart();
    this.connect(resume);
  }

  /** Rows came from a GET page: the next stream must start with a reset, not `since`. */
  grewOutside() {
    this.stale = true;
  }

  /** Reopens the stream (for a reset) if one is open or connecting. */
  restartIfOpen() {
    if (this.source) this.restart(false);
  }

  /** A delivered event: the reconnect backoff starts over. */
  delivered() {
    this.reconnects = 0;
  }

  onError() {
    // The browser would retry by itself with the stale URL: retry here, with backoff and `since`.
    this.disconnect();
    this.host.onLost();
    const delay = Math.min(this.config.reconnectMax, this.config.reconnectBase * 2 ** this.reconnects++);
    this.reconnectTimer = window.setTimeout(() => {
      this.reconnectTimer = 0;
      this.connect(true);
    }, delay * (0.75 + Math.random() / 4));
  }

  /**
   * @param {MessageEvent} e
   */
  onReset(e) {
    let data;
    try { data = JSON.parse(e.data); } catch (err) { this.restart(false); return; }
    this.subscription = data.subscription || null;
    this.stale = false;
    this.host.onDocument(normalizeDoc(data.doc), e.lastEventId || String(data.version ?? ''), true);
    this.host.onCurrent();
  }

  /**
   * @param {MessageEvent} e
   */
  onPatch(e) {
    let doc;
    try {
      doc = normalizeDoc(applyPatch(this.host.doc(), JSON.parse(e.data)));
    } catch (err) {
      this.parts.dispatch('list:resync', { error: String(err && /** @type {Error} */ (err).message) });
      this.restart(false); // ask for a reset
      return;
    }
    this.host.onDocument(doc, e.lastEventId, false);
  }

  /** Closes the stream for the back/forward cache, noting whether to reconnect on return. */
  suspend() {
    this.resumeOnShow = !!this.source || this.reconnectTimer !== 0;
    this.disconnect();
  }

  resume() {
    if (this.resumeOnShow) this.connect(true);
  }
}
