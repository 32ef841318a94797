// json-patch.js: RFC 6902 JSON Patch and RFC 6901 JSON Pointer, applied atomically to a copy.
// Layer 0 (Public/js/README.md). Imports nothing; touches no DOM.

/** @typedef {{op: string, path: string, from?: string, value?: *}} PatchOp */

/** Thrown when a patch does not apply. */
export class PatchError extends Error {}

/**
 * Splits a JSON Pointer into unescaped reference tokens.
 * @param {string} pointer
 * @returns {string[]}
 */
function parsePointer(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || pointer[0] !== '/' || /~[^01]|~$/.test(pointer)) {
    throw new PatchError('bad pointer ' + pointer);
  }
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * @param {*} v
 */
const isContainer = (v) => v !== null && typeof v === 'object';

/**
 * The array index a token names; `-` (one past the end) only when `forAdd`.
 * @param {Array<*>} array
 * @param {string} token
 * @param {boolean} forAdd
 */
function arrayIndex(array, token, forAdd) {
  if (forAdd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError('bad array index ' + token);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length)) {
    throw new PatchError('index out of range ' + token);
  }
  return index;
}

/**
 * @param {*} obj
 * @param {string} key
 */
const hasOwn = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * The value at `tokens`; throws when absent.
 * @param {*} doc
 * @param {string[]} tokens
 */
function getAt(doc, tokens) {
  let value = doc;
  for (const token of tokens) {
    if (Array.isArray(value)) value = value[arrayIndex(value, token, false)];
    else if (isContainer(value) && hasOwn(value, token)) value = value[token];
    else throw new PatchError('no value at /' + tokens.join('/'));
  }
  return value;
}

/**
 * Sets an own property, safely even for `__proto__`.
 * @param {*} obj
 * @param {string} key
 * @param {*} value
 */
function setOwn(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * @param {*} doc
 * @param {string[]} tokens
 * @param {*} value
 * @returns {*} the new document
 */
function addAt(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = getAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else if (isContainer(parent)) setOwn(parent, last, value);
  else throw new PatchError('cannot add into a scalar');
  return doc;
}

/**
 * @param {*} doc
 * @param {string[]} tokens
 * @returns {*} the removed value
 */
function removeAt(doc, tokens) {
  if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
  const parent = getAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false), 1)[0];
  if (isContainer(parent) && hasOwn(parent, last)) {
    const value = parent[last];
    delete parent[last];
    return value;
  }
  throw new PatchError('no value to remove at /' + tokens.join('/'));
}

/**
 * JSON equality (object member order does not matter).
 * @param {*} a
 * @param {*} b
 * @returns {boolean}
 */
function deepEqual(a, b) {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
}

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
export const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/**
 * Applies an RFC 6902 patch to a copy of `doc`; throws PatchError when any operation fails
 * (the input is never changed, so the application is atomic).
 * @param {*} doc
 * @param {PatchOp[]} ops
 * @returns {*}
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError('a patch is an array');
  let out = clone(doc);
  for (const op of ops) {
    if (!isContainer(op)) throw new PatchError('an operation is an object');
    const path = parsePointer(op.path);
    switch (op.op) {
      case 'add': out = addAt(out, path, clone(requireValue(op))); break;
      case 'remove': removeAt(out, path); break;
      case 'replace':
        if (path.length === 0) { out = clone(requireValue(op)); break; }
        removeAt(out, path);
        out = addAt(out, path, clone(requireValue(op)));
        break;
      case 'move': {
        const from = parsePointer(/** @type {string} */ (op.from));
        if (op.path === op.from) { getAt(out, from); break; }
        if (op.path.startsWith(op.from + '/')) throw new PatchError('cannot move into a child');
        out = addAt(out, path, removeAt(out, from));
        break;
      }
      case 'copy':
        out = addAt(out, path, clone(getAt(out, parsePointer(/** @type {string} */ (op.from)))));
        break;
      case 'test':
        if (!deepEqual(getAt(out, path), requireValue(op))) throw new PatchError('test failed at ' + op.path);
        break;
      default: throw new PatchError('unknown op ' + op.op);
    }
  }
  return out;
}

/**
 * @param {PatchOp} op
 */
function requireValue(op) {
  if (!hasOwn(op, 'value')) throw new PatchError(op.op + ' needs a value');
  return op.value;
}
