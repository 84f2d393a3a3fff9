// RFC 6902 JSON patch as kube-apiserver 1.33 applies it, to a request's object (PATCH with
// application/json-patch+json) and to a mutating webhook's: gopkg.in/evanphx/json-patch.v4
// (v4.12.0, patch.go: Patch.ApplyIndent and one method per operation), not the RFC. Where they
// differ: a path's first token is ignored (only what follows the first '/' counts, so "a" names
// nothing and "x/a" names "/a"); the whole document can be replaced or tested, never added to,
// removed or copied to; replace of a missing member adds it; copy from a missing member copies
// null; a test of a missing member passes when its value is null; scalars test equal only when
// their texts are (1 is not 1.0); every object the operations walked into comes out as a Go map
// (keys sorted), other values as they were. Copies may add at most
// AccumulatedCopySizeLimit bytes, which kube's server sets to 3 MiB (JSONPatchMaxCopyBytes).
import { escapeGoHTML } from '../../json/go-json-text.js';
import { addIn, getIn, JSONPatchError, removeIn, setIn, type PatchContainer } from './containers.js';
import {
  aryOf,
  aryOfJSON,
  containerValue,
  docOf,
  docOfJSON,
  equalNodes,
  intoAry,
  intoDoc,
  isTextless,
  looksLikeArray,
  marshalContainer,
  marshalNode,
  rawNode,
} from './lazy-node.js';
import type { Ary, Doc, LazyNode } from './lazy-node.js';
import { rawElements, rawMembers, rawTypeName } from './raw-json.js';
import { parseWellFormed } from '../../json/well-formed.js';

export { JSONPatchError } from './containers.js';

/** One operation as jsonpatch.Operation holds it: each member's JSON text, null for a JSON null. */
export type JSONPatchOperation = ReadonlyMap<string, string | null>;

/** kube's genericapiserver default for jsonpatch.AccumulatedCopySizeLimit. */
export const jsonPatchMaxCopyBytes = 3 * 1024 * 1024;

/**
 * jsonpatch.DecodePatch of valid JSON text: null is no operation; anything but an array of objects
 * (or nulls, which fail when applied) is refused with json.Unmarshal's message.
 */
export function decodeJSONPatchText(text: string): JSONPatchOperation[] {
  const raw = text.trim();
  if (raw === 'null') return [];
  const elements = rawElements(raw);
  if (elements === undefined) {
    throw new JSONPatchError(
      `json: cannot unmarshal ${rawTypeName(raw)} into Go value of type jsonpatch.Patch`,
    );
  }
  return elements.map((element) => {
    if (element === 'null') return new Map();
    const members = rawMembers(element);
    if (members === undefined) {
      throw new JSONPatchError(
        `json: cannot unmarshal ${rawTypeName(element)} into Go value of type jsonpatch.Operation`,
      );
    }
    return new Map(members.map(([k, v]) => [k, v === 'null' ? null : v]));
  });
}

/** Operation.Kind, Path, From: a string member, "unknown" or an error when absent or not one. */
function stringMember(op: JSONPatchOperation, name: string, missing: string): string {
  const raw = op.get(name) ?? null;
  if (raw === null) throw new JSONPatchError(`${missing}: missing value`);
  if (raw.charAt(0) !== '"') {
    throw new JSONPatchError(`json: cannot unmarshal ${rawTypeName(raw)} into Go value of type string`);
  }
  return parseWellFormed(raw) as string;
}

function kindOf(op: JSONPatchOperation): string {
  const raw = op.get('op') ?? null;
  return raw?.charAt(0) === '"' ? (JSON.parse(raw) as string) : 'unknown';
}

const pathOf = (op: JSONPatchOperation): string => stringMember(op, 'path', 'operation missing path field');
const fromOf = (op: JSONPatchOperation): string => stringMember(op, 'from', 'operation, missing from field');

/** Operation.value: a fresh node of the value's text (raw null for null), undefined without one. */
function valueOf(op: JSONPatchOperation): LazyNode | undefined {
  return op.has('value') ? rawNode(op.get('value') ?? null) : undefined;
}

/** Wraps a failure to read a member the way each operation words it. */
function read(get: () => string, wrap: (message: string) => string): string {
  try {
    return get();
  } catch (err) {
    throw new JSONPatchError(wrap((err as Error).message));
  }
}

// One pass, as strings.NewReplacer("~1", "/", "~0", "~") does.
const decodeToken = (t: string): string => t.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

/** findObject: the container of the path's last token and that token; the first token is skipped. */
function findObject(root: PatchContainer, path: string): { con: PatchContainer; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con = root;
  for (const part of split.slice(1, -1)) {
    let next: LazyNode | null;
    try {
      next = getIn(con, decodeToken(part));
    } catch {
      return undefined;
    }
    // Go reads a null member's nil pointer as missing (a null added by the patch panics there).
    if (next === null || isTextless(next)) return undefined;
    const inner = looksLikeArray(next) ? intoAry(next) : intoDoc(next);
    if (inner === undefined) return undefined;
    con = inner;
  }
  return { con, key: decodeToken(split[split.length - 1] ?? '') };
}

interface State {
  root: PatchContainer;
  copied: number;
  readonly copyLimit: number;
}

/** Runs `f`, prefixing its error as Go's fmt.Errorf("...: %w") does. */
function wrapped<T>(prefix: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new JSONPatchError(`${prefix}: ${(err as Error).message}`);
  }
}

function add(s: State, op: JSONPatchOperation): void {
  const path = read(
    () => pathOf(op),
    () => 'add operation failed to decode path: missing value',
  );
  const found = findObject(s.root, path);
  if (found === undefined) {
    throw new JSONPatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
  }
  wrapped(`error in add for path: '${path}'`, () => {
    addIn(found.con, found.key, valueOf(op) ?? null);
  });
}

function remove(s: State, op: JSONPatchOperation): void {
  const path = read(
    () => pathOf(op),
    () => 'remove operation failed to decode path: missing value',
  );
  const found = findObject(s.root, path);
  if (found === undefined) {
    throw new JSONPatchError(
      `remove operation does not apply: doc is missing path: "${path}": missing value`,
    );
  }
  wrapped(`error in remove for path: '${path}'`, () => {
    removeIn(found.con, found.key);
  });
}

function replace(s: State, op: JSONPatchOperation): void {
  const path = read(
    () => pathOf(op),
    (m) => `replace operation failed to decode path: ${m}`,
  );
  if (path === '') {
    // v4.12 wraps a nil error here, which is no error: a value that is no object or array is ignored.
    const raw = op.get('value') ?? null;
    const next = raw === null ? undefined : (docOf(raw) ?? aryOf(raw));
    if (next !== undefined) s.root = next;
    return;
  }
  const found = findObject(s.root, path);
  if (found === undefined) {
    throw new JSONPatchError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  }
  try {
    getIn(found.con, found.key);
  } catch {
    throw new JSONPatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  }
  wrapped(`error in remove for path: '${path}'`, () => {
    setIn(found.con, found.key, valueOf(op) ?? null);
  });
}

function move(s: State, op: JSONPatchOperation): void {
  const from = read(
    () => fromOf(op),
    (m) => `move operation failed to decode from: ${m}`,
  );
  const source = findObject(s.root, from);
  if (source === undefined) {
    throw new JSONPatchError(
      `move operation does not apply: doc is missing from path: ${from}: missing value`,
    );
  }
  const value = wrapped(`error in move for path: '${source.key}'`, () => {
    const got = getIn(source.con, source.key);
    removeIn(source.con, source.key);
    return got;
  });
  const path = read(
    () => pathOf(op),
    (m) => `move operation failed to decode path: ${m}`,
  );
  const target = findObject(s.root, path);
  if (target === undefined) {
    throw new JSONPatchError(
      `move operation does not apply: doc is missing destination path: ${path}: missing value`,
    );
  }
  wrapped(`error in move for path: '${path}'`, () => {
    addIn(target.con, target.key, value);
  });
}

function test(s: State, op: JSONPatchOperation): void {
  const path = read(
    () => pathOf(op),
    (m) => `test operation failed to decode path: ${m}`,
  );
  const failed = new JSONPatchError(`testing value ${path} failed: test failed`);
  const value = valueOf(op);
  if (path === '') {
    const self = rawNode(null);
    if (Array.isArray(s.root)) Object.assign(self, { ary: s.root, which: 'ary' });
    else Object.assign(self, { doc: s.root, which: 'doc' });
    if (value === undefined || !equalNodes(self, value)) throw failed;
    return;
  }
  const found = findObject(s.root, path);
  if (found === undefined) {
    throw new JSONPatchError(`test operation does not apply: is missing path: ${path}: missing value`);
  }
  const current = wrapped(`error in test for path: '${path}'`, () => getIn(found.con, found.key));
  // A missing member and a null one are both nil: a null value tests equal to either. (v4.12
  // panics on a test without a value there; it fails here.)
  if (current === null) {
    if (value?.raw === null) return;
    throw failed;
  }
  if (value === undefined || !equalNodes(current, value)) throw failed;
}

function copy(s: State, op: JSONPatchOperation): void {
  const limit = s.copyLimit;
  const from = read(
    () => fromOf(op),
    (m) => `copy operation failed to decode from: ${m}`,
  );
  const source = findObject(s.root, from);
  if (source === undefined) {
    throw new JSONPatchError(
      `copy operation does not apply: doc is missing from path: ${from}: missing value`,
    );
  }
  const value = wrapped(`error in copy for from: '${from}'`, () => getIn(source.con, source.key));
  const path = read(
    () => pathOf(op),
    () => 'copy operation failed to decode path: missing value',
  );
  const target = findObject(s.root, path);
  if (target === undefined) {
    throw new JSONPatchError(
      `copy operation does not apply: doc is missing destination path: ${path}: missing value`,
    );
  }
  // deepCopy: the value written out and kept as text; a nil value (missing member) stays nil.
  const text = value === null ? undefined : escapeGoHTML(marshalNode(value));
  s.copied += text === undefined ? 0 : Buffer.byteLength(text);
  if (limit > 0 && s.copied > limit) {
    throw new JSONPatchError(
      `Unable to complete the copy, the accumulated size increase of copy is ${s.copied}, exceeding the limit ${limit}`,
    );
  }
  wrapped('error while adding value during copy', () => {
    addIn(target.con, target.key, text === undefined ? null : rawNode(text));
  });
}

type Apply = (s: State, op: JSONPatchOperation) => void;

// Patch.ApplyIndent's switch on Operation.Kind; a Map, so that no kind finds an inherited member.
const operations: ReadonlyMap<string, Apply> = new Map<string, Apply>([
  ['add', add],
  ['remove', remove],
  ['replace', replace],
  ['move', move],
  ['test', test],
  ['copy', copy],
]);

/** The operations applied in order to the document's containers; throws as applyJSONPatch. */
function applied(doc: unknown, ops: readonly JSONPatchOperation[], copyLimit: number): Doc | Ary {
  const root = docOfJSON(doc) ?? aryOfJSON(doc);
  if (root === undefined) throw new JSONPatchError('the document is no JSON object or array');
  const s: State = { root, copied: 0, copyLimit };
  for (const op of ops) {
    const kind = kindOf(op);
    const apply = operations.get(kind);
    if (apply === undefined) throw new JSONPatchError(`Unexpected kind: ${kind}`);
    apply(s, op);
  }
  return s.root;
}

/**
 * Patch.Apply: the operations applied in order to a decoded JSON object (or array), which is left
 * as it was, and a fresh value of the result as Go writes and kube decodes it. Throws a
 * JSONPatchError with the library's message at the first operation that fails.
 */
export function applyJSONPatch(
  doc: unknown,
  ops: readonly JSONPatchOperation[],
  copyLimit: number = jsonPatchMaxCopyBytes,
): unknown {
  return containerValue(applied(doc, ops, copyLimit));
}

/**
 * applyJSONPatch's value, and the text Patch.Apply returns: json.Marshal of the result, the
 * patch's values written as the patch wrote them (number text such as `1.0` kept), which is what
 * kube's decoder reads.
 */
export function applyJSONPatchWithText(
  doc: unknown,
  ops: readonly JSONPatchOperation[],
): { readonly value: unknown; readonly text: string } {
  const root = applied(doc, ops, jsonPatchMaxCopyBytes);
  return { value: containerValue(root), text: marshalContainer(root) };
}
