// announcer.js: the polite `role="status"` live region after the table ("3 more rows loaded",
// "1 row added"). Layer 2 (Public/js/README.md). Imports nothing.

/** The polite `role="status"` region after the table. */
export class Announcer {
  /**
   * @param {HTMLTableElement} table
   */
  constructor(table) {
    const region = document.createElement('div');
    region.className = 'list-announcer';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('aria-atomic', 'true');
    table.after(region);
    this.region = region;
  }

  /**
   * Says `message` politely (repeated messages are said again).
   * @param {string} message
   */
  say(message) {
    this.region.textContent = this.region.textContent === message ? message + '\u00a0' : message;
  }

  /**
   * "N more rows loaded" (nothing for 0).
   * @param {number} n
   */
  moreLoaded(n) {
    if (n) this.say(`${n} more ${n === 1 ? 'row' : 'rows'} loaded`);
  }

  /**
   * "2 rows added, 1 row removed" (nothing when neither).
   * @param {number} added
   * @param {number} removed
   */
  changed(added, removed) {
    const parts = [];
    if (added) parts.push(`${added} ${added === 1 ? 'row' : 'rows'} added`);
    if (removed) parts.push(`${removed} ${removed === 1 ? 'row' : 'rows'} removed`);
    if (parts.length) this.say(parts.join(', '));
  }
}
