// Keys as the cacher sees them: relative to the storage's path prefix, always starting with '/'.
// prepareKey follows storage.PrepareKey in k8s.io/apiserver/pkg/storage/util.go.
import { StorageError } from '../errors.js';

function invalidKey(key: string, message: string): StorageError {
  return new StorageError({ code: 'InvalidError', key, message });
}

/** Whether a '/'-separated segment of `key` is `.` or `..` (without splitting it: this runs per read). */
function hasDotSegment(key: string): boolean {
  for (let i = key.indexOf('.'); i !== -1; i = key.indexOf('.', i + 1)) {
    const start = i === 0 || key.charCodeAt(i - 1) === 0x2f;
    if (!start) continue;
    const end = key.charCodeAt(i + 1) === 0x2e ? i + 2 : i + 1;
    if (end === key.length || key.charCodeAt(end) === 0x2f) return true;
  }
  return false;
}

/** A key from the caller, checked and normalised; a recursive key ends with '/'. */
export function prepareKey(resourcePrefix: string, key: string, recursive: boolean): string {
  if (key === '' || key === '/') throw invalidKey(key, `empty key: ${JSON.stringify(key)}`);
  if (hasDotSegment(key)) {
    throw invalidKey(key, `invalid key: ${JSON.stringify(key)}`);
  }
  let out = key.startsWith('/') ? key : `/${key}`;
  if (recursive && !out.endsWith('/')) out += '/';
  if (!out.startsWith(resourcePrefix)) {
    throw invalidKey(
      key,
      `invalid key: ${JSON.stringify(key)} lacks resource prefix ${JSON.stringify(resourcePrefix)}`,
    );
  }
  return out;
}

/** A key computed from an object, normalised like prepareKey's output. */
export function normalizeObjectKey(key: string): string {
  return key.startsWith('/') ? key : `/${key}`;
}

/** Whether `key` is selected by a watch or list of `scope` (a prefix ending in '/', or one exact key). */
export function keyMatches(key: string, scope: string, recursive: boolean): boolean {
  return recursive ? key.startsWith(scope) : key === scope;
}

/** Every '/'-terminated prefix of a key, shortest first: `/pods/ns/a` → `/`, `/pods/`, `/pods/ns/`. */
export function keyAncestors(key: string): string[] {
  const out: string[] = [];
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) out.push(key.slice(0, i + 1));
  return out;
}
