// fast-json-patch reads and writes `obj[key]`: a key named like a member of Object.prototype
// (`constructor`, `toString`, `__proto__`) finds that member where the object has no such key (so a
// remove or move of a missing `toString` succeeds), `__proto__` is refused outright, and a test
// compares objects with `b.hasOwnProperty(k)`, which a `hasOwnProperty` key breaks. kube's jsonpatch
// treats them all as map keys. So when a patch names such a key, the document and the patch are
// rewritten to have none (each such key, and each key that starts with the escape, gains the escape
// as a prefix), patched, and the result rewritten back.
import { setMember } from '../../machinery/json/set-member.js';

const escape = '\u0000';
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));
const needsEscape = (key: string): boolean => inherited.has(key) || key.startsWith(escape);

const decodeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');
const encodeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

function pointerNeedsEscape(pointer: unknown): boolean {
  return typeof pointer === 'string' && pointer.split('/').some((t) => needsEscape(decodeToken(t)));
}

function keysNeedEscape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(keysNeedEscape);
  return Object.entries(value).some(([k, v]) => needsEscape(k) || keysNeedEscape(v));
}

const member = (op: object, key: string): unknown =>
  Object.hasOwn(op, key) ? (op as Record<string, unknown>)[key] : undefined;

/** Whether an operation's path, from or value names a key that must be escaped. */
export function namesInheritedKey(ops: readonly unknown[]): boolean {
  return ops.some(
    (op) =>
      typeof op === 'object' &&
      op !== null &&
      (pointerNeedsEscape(member(op, 'path')) ||
        pointerNeedsEscape(member(op, 'from')) ||
        keysNeedEscape(member(op, 'value'))),
  );
}

/** A deep copy of a JSON value with every key escaped (`escaped`) or unescaped. */
export function renamedKeys(value: unknown, escaped: boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => renamedKeys(v, escaped));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = escaped ? (needsEscape(k) ? escape + k : k) : k.startsWith(escape) ? k.slice(1) : k;
    setMember(out, key, renamedKeys(v, escaped));
  }
  return out;
}

function escapedPointer(pointer: string): string {
  return pointer
    .split('/')
    .map((t, i) => {
      const token = decodeToken(t);
      return i > 0 && needsEscape(token) ? encodeToken(escape + token) : t;
    })
    .join('/');
}

/** The operations with their pointers and values escaped as `renamedKeys` escapes a document. */
export function escapedOperations(ops: readonly unknown[]): unknown[] {
  return ops.map((op) => {
    if (typeof op !== 'object' || op === null) return op;
    const out: Record<string, unknown> = { ...op };
    const path = member(op, 'path');
    const from = member(op, 'from');
    if (typeof path === 'string') out['path'] = escapedPointer(path);
    if (typeof from === 'string') out['from'] = escapedPointer(from);
    if (Object.hasOwn(op, 'value')) out['value'] = renamedKeys(member(op, 'value'), true);
    return out;
  });
}
