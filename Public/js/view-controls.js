// view-controls.js: views in place (API.md section 9). The page's sortable column headers, the
// filter-removal links and the search form work as links and a GET form without JavaScript; with
// it, this module fetches the new view's page, and the table shows its first page and follows
// its stream (ListView.showView) without a reload: the URL kept current (`history`, back and
// forward in place), focus kept, typing debounced, a newer view superseding a slower older one.
// Any failure falls back to the navigation the link or form would have made.
// Layer 4 (Public/js/README.md). Imports: list-view.js and config.js (types only).

/** @typedef {import('./list-view.js').ListView} ListView */
/** @typedef {import('./config.js').Config} Config */
/**
 * How a view is shown: `history` (push a new entry, replace the current one, or none: the URL
 * is already the view's, after back or forward), `typing` (the search field asked for it: its
 * text is the user's, not replaced), `focus` (what to focus once shown).
 * @typedef {{history: 'push'|'replace'|'none', typing?: boolean, focus?: ?FocusTarget}} ShowOptions
 */
/** @typedef {{kind: 'sort', column: number} | {kind: 'filter', index: number}} FocusTarget */

/**
 * Whether a query parameter names the view (API.md section 9) or the view link's key.
 * @param {string} name
 */
const isViewParameter = (name) =>
  name === 'sort' || name === 'sort_desc' || name === 'q' || name === 'key' || name.startsWith('filter.');

/**
 * The view a URL names, as a comparable string: its view parameters sorted (an empty `q` is no
 * search, as for the server).
 * @param {URL} url
 */
function viewOf(url) {
  return url.pathname + '?' + [...url.searchParams]
    .filter(([name, value]) => isViewParameter(name) && !(name === 'q' && value === ''))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .sort().join('&');
}

/**
 * Whether a click should stay the browser's (a new tab or window, a download, another button).
 * @param {MouseEvent} e
 */
const browsersClick = (e) => e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;

/** The view controls above one table: in-place view changes, history, focus, announcements. */
export class ViewControls {
  /**
   * Takes over the view controls right before `view`'s table, if the page has them.
   * @param {ListView} view
   * @param {Config} config
   * @returns {?ViewControls}
   */
  static attach(view, config) {
    const box = view.table.previousElementSibling;
    if (!box || !box.matches('div.view-controls') || !box.querySelector('form.view-search')) return null;
    if (typeof fetch !== 'function' || typeof AbortController !== 'function' || !window.history?.pushState) return null;
    return new ViewControls(view, /** @type {HTMLElement} */ (box), config);
  }

  /**
   * @param {ListView} view
   * @param {HTMLElement} box the `div.view-controls`
   * @param {Config} config
   */
  constructor(view, box, config) {
    this.view = view;
    this.box = box;
    this.config = config;
    this.form = /** @type {HTMLFormElement} */ (box.querySelector('form.view-search'));
    this.input = /** @type {?HTMLInputElement} */ (this.form.querySelector('input[name="q"]'));
    /** The URL of the view the table shows. */
    this.shown = new URL(location.href);
    /** @type {?AbortController} the request of the view being fetched */
    this.pending = null;
    this.typingTimer = 0;
    box.addEventListener('click', (e) => this.onClick(e));
    view.table.addEventListener('click', (e) => this.onClick(e));
    this.form.addEventListener('submit', (e) => this.onSubmit(e));
    this.input?.addEventListener('input', (e) => this.onInput(/** @type {InputEvent} */ (e)));
    this.input?.addEventListener('compositionend', () => this.onInput(null));
    window.addEventListener('popstate', () => this.onPopState());
  }

  /**
   * A sort header link or a filter's removal link: the view it links to, in place.
   * @param {MouseEvent} e
   */
  onClick(e) {
    if (browsersClick(e)) return;
    const link = /** @type {Element} */ (e.target).closest('a[href]');
    if (!link) return;
    /** @type {?FocusTarget} */
    let focus = null;
    const th = link.closest('th');
    if (link.matches('a.sort') && th && th.closest('thead') === this.view.table.tHead) {
      focus = { kind: 'sort', column: /** @type {HTMLTableCellElement} */ (th).cellIndex };
    } else if (link.closest('ul.view-filters') && this.box.contains(link)) {
      const items = Array.from(this.box.querySelectorAll('ul.view-filters > li'));
      focus = { kind: 'filter', index: items.indexOf(/** @type {Element} */ (link.closest('li'))) };
    } else {
      return;
    }
    e.preventDefault();
    this.show(new URL(/** @type {string} */ (link.getAttribute('href')), location.href), { history: 'push', focus });
  }

  /**
   * @param {SubmitEvent} e
   */
  onSubmit(e) {
    e.preventDefault();
    window.clearTimeout(this.typingTimer);
    this.show(this.formURL(), { history: 'push' });
  }

  /**
   * Typing in the search field: the view is asked for once the typing pauses (`searchDelay`).
   * @param {?InputEvent} e null at the end of a composition (an input method)
   */
  onInput(e) {
    if (e && e.isComposing) return;
    window.clearTimeout(this.typingTimer);
    this.pending?.abort(); // an answer for text the user changed since is not wanted any more
    this.typingTimer = window.setTimeout(() => {
      // One history entry for a run of typing: the first change pushes, the next replace it.
      const typed = window.history.state && window.history.state.listViewTyped;
      this.show(this.formURL(), { history: typed ? 'replace' : 'push', typing: true });
    }, this.config.searchDelay);
  }

  /** Back or forward to another view of this list: shown in place. */
  onPopState() {
    const here = new URL(location.href);
    if (here.pathname !== this.shown.pathname) return;
    window.clearTimeout(this.typingTimer);
    if (viewOf(here) === viewOf(this.shown)) {
      this.pending?.abort(); // back to the view shown, while another was being fetched
      this.pending = null;
      this.settleBusy();
      return;
    }
    this.show(here, { history: 'none' });
  }

  /** The URL the search form would navigate to (without an empty `q`). */
  formURL() {
    const url = new URL(this.form.action || location.href, location.href);
    url.search = '';
    for (const [name, value] of new FormData(this.form)) {
      if (typeof value === 'string' && !(name === 'q' && value === '')) url.searchParams.append(name, value);
    }
    return url;
  }

  /**
   * Fetches the view `url` names and shows it in place; a newer call supersedes it.
   * @param {URL} url
   * @param {ShowOptions} how
   */
  async show(url, how) {
    // A view link's key (docs/ACCESS.md) goes with every view of the page, even through the head
    // links a stream's reset wrote (one head serves every subscriber, so it carries no key).
    if (this.view.key !== null && !url.searchParams.has('key')) url.searchParams.set('key', this.view.key);
    this.pending?.abort();
    this.pending = null;
    if (how.history !== 'none' && viewOf(url) === viewOf(this.shown)) {
      this.settleBusy();
      this.restoreFocus(how.focus);
      return;
    }
    const controller = new AbortController();
    this.pending = controller;
    const table = this.view.table;
    table.setAttribute('aria-busy', 'true');
    let page;
    try {
      const response = await fetch(url.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: controller.signal });
      if (!response.ok || !/^text\/html/.test(response.headers.get('Content-Type') || '')) throw new Error('HTTP ' + response.status);
      page = new DOMParser().parseFromString(await response.text(), 'text/html');
    } catch (error) {
      if (!controller.signal.aborted) this.navigate(url, how);
      return;
    }
    if (this.pending !== controller) return; // superseded while the body arrived
    this.pending = null;
    const newTable = Array.from(page.querySelectorAll('table.list[data-list]'))
      .find((t) => t.getAttribute('data-list') === this.view.id);
    const newBox = newTable?.previousElementSibling;
    if (!newTable || !newBox || !newBox.matches('div.view-controls') || !newBox.querySelector('form.view-search') || this.view.deleted) {
      this.navigate(url, how);
      return;
    }
    const focusedSort = this.focusedSortColumn();
    if (how.history === 'push') window.history.pushState({ listViewTyped: !!how.typing }, '', url.href);
    else if (how.history === 'replace') window.history.replaceState({ listViewTyped: true }, '', url.href);
    this.shown = url;
    this.view.showView(/** @type {HTMLTableElement} */ (newTable), url.search);
    this.showControls(/** @type {HTMLElement} */ (newBox), !!how.typing);
    // Asked for from far down the table (its head is sticky): the new view shows from its top.
    // Back and forward leave the scroll to the browser's own restoration.
    if (how.history !== 'none' && table.getBoundingClientRect().top < 0) table.scrollIntoView({ block: 'start' });
    this.restoreFocus(how.focus || (focusedSort === null ? null : { kind: 'sort', column: focusedSort }));
    this.view.announcer.say(this.describe());
    this.view.parts.dispatch('list:viewchanged', { url: url.href });
  }

  /** `aria-busy` as the table's own state says, once no view is being fetched. */
  settleBusy() {
    const { parts, pager } = this.view;
    parts.setBusy(pager.loading || !!parts.statusBody()?.classList.contains('state-loading'));
  }

  /**
   * Falls back to what the link or form does without JavaScript: a navigation.
   * @param {URL} url
   * @param {ShowOptions} how
   */
  navigate(url, how) {
    if (how.history === 'none') location.replace(url.href);
    else location.assign(url.href);
  }

  /**
   * The controls as the new view's page has them (the active filters, the CSV link, the form's
   * hidden view parameters); the form and its search field stay the same elements (focus,
   * caret), and the field's text is replaced only when the user is not typing it.
   * @param {HTMLElement} newBox
   * @param {boolean} typing
   */
  showControls(newBox, typing) {
    const newForm = /** @type {HTMLFormElement} */ (newBox.querySelector('form.view-search'));
    const fresh = Array.from(newBox.children);
    const at = fresh.indexOf(newForm);
    for (const el of Array.from(this.box.children)) if (el !== this.form) el.remove();
    this.form.before(...fresh.slice(0, at).map((el) => document.adoptNode(el)));
    this.form.after(...fresh.slice(at + 1).map((el) => document.adoptNode(el)));
    this.form.querySelectorAll('input[type="hidden"]').forEach((el) => el.remove());
    const hidden = Array.from(newForm.querySelectorAll('input[type="hidden"]'), (el) => document.adoptNode(el));
    if (this.input) this.input.after(...hidden);
    else this.form.prepend(...hidden);
    const newInput = /** @type {?HTMLInputElement} */ (newForm.querySelector('input[name="q"]'));
    if (this.input && newInput && !typing && this.input.value !== newInput.value) this.input.value = newInput.value;
  }

  /** The column whose sort link has focus (it is replaced with the head), or null. */
  focusedSortColumn() {
    const active = document.activeElement;
    const th = active && active.matches('a.sort') ? active.closest('th') : null;
    return th && th.closest('thead') === this.view.table.tHead ? /** @type {HTMLTableCellElement} */ (th).cellIndex : null;
  }

  /**
   * Focuses the new sort link of the clicked column, or the removal link now where the removed
   * one was (else the search field): the element the user acted on was replaced.
   * @param {?FocusTarget=} focus
   */
  restoreFocus(focus) {
    if (!focus) return;
    /** @type {?HTMLElement} */
    let target = null;
    if (focus.kind === 'sort') {
      const cell = this.view.table.tHead?.rows[0]?.cells[focus.column];
      target = cell ? cell.querySelector('a.sort') : null;
    } else {
      const links = this.box.querySelectorAll('ul.view-filters > li a[href]');
      target = /** @type {?HTMLElement} */ (links[Math.min(focus.index, links.length - 1)] || this.input);
    }
    if (target && target !== document.activeElement) target.focus();
  }

  /** What the table shows now, for screen readers: "Sorted by Name, ascending, search “an”, 12 rows". */
  describe() {
    const table = this.view.table;
    const parts = [];
    const sorted = table.tHead?.querySelector('th[aria-sort]');
    if (sorted) parts.push(`sorted by ${(sorted.textContent || '').trim()}, ${sorted.getAttribute('aria-sort')}`);
    const q = this.shown.searchParams.get('q');
    if (q) parts.push(`search \u201C${q}\u201D`);
    const filters = [...this.shown.searchParams.keys()].filter((name) => name.startsWith('filter.')).length;
    if (filters) parts.push(`${filters} ${filters === 1 ? 'filter' : 'filters'}`);
    const status = this.view.parts.statusBody();
    const rows = this.view.parts.rows().length;
    if (status && !rows) parts.push((status.textContent || '').trim());
    else parts.push(`${rows} ${rows === 1 ? 'row' : 'rows'}${this.view.parts.paginationBody() ? ' shown, more to load' : ''}`);
    const text = parts.join(', ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
}
