// RFC 6902 JSON Patch applied to a mutating webhook's object (kube uses evanphx/json-patch v4):
// add, remove, replace, move, copy and test on a deep copy; the original is left as it was.
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { setMember } from '../../../machinery/json/set-member.js';
import { jsonEqual } from '../../../machinery/patch/json.js';

type Container = Record<string, unknown> | unknown[];

interface Operation {
  readonly op: string;
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** The path's tokens with ~1 and ~0 undone; '' is the whole document. */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`invalid JSON pointer: ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function child(parent: Container, key: string, pointer: string): unknown {
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!/^(0|[1-9][0-9]*)$/.test(key) || i >= parent.length)
      throw new Error(`unable to access invalid index: ${key}`);
    return parent[i];
  }
  if (!Object.hasOwn(parent, key)) throw new Error(`doc is missing path: ${JSON.stringify(pointer)}`);
  return parent[key];
}

/** The container holding the pointer's last token, and that token. */
function parentOf(doc: unknown, pointer: string): { parent: Container; key: string } {
  const path = tokens(pointer);
  const key = path.pop();
  if (key === undefined) throw new Error('the root cannot be the target of this operation');
  let node = doc;
  for (const t of path) {
    if (!isContainer(node)) throw new Error(`doc is missing path: ${JSON.stringify(pointer)}`);
    node = child(node, t, pointer);
  }
  if (!isContainer(node)) throw new Error(`doc is missing path: ${JSON.stringify(pointer)}`);
  return { parent: node, key };
}

function get(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const t of tokens(pointer)) {
    if (!isContainer(node)) throw new Error(`doc is missing path: ${JSON.stringify(pointer)}`);
    node = child(node, t, pointer);
  }
  return node;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const { parent, key } = parentOf(doc, pointer);
  if (!Array.isArray(parent)) {
    setMember(parent, key, value);
    return doc;
  }
  const i = key === '-' ? parent.length : Number(key);
  if (!/^(0|[1-9][0-9]*|-)$/.test(key) || i > parent.length)
    throw new Error(`unable to access invalid index: ${key}`);
  parent.splice(i, 0, value);
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  const { parent, key } = parentOf(doc, pointer);
  child(parent, key, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else Reflect.deleteProperty(parent, key);
  return doc;
}

function applyOne(doc: unknown, op: Operation): unknown {
  switch (op.op) {
    case 'add':
      return add(doc, op.path, deepCopyJSON(op.value));
    case 'remove':
      return remove(doc, op.path);
    case 'replace':
      if (op.path === '') return deepCopyJSON(op.value);
      return add(remove(doc, op.path), op.path, deepCopyJSON(op.value));
    case 'move': {
      const value = get(doc, op.from ?? '');
      return add(remove(doc, op.from ?? ''), op.path, value);
    }
    case 'copy':
      return add(doc, op.path, deepCopyJSON(get(doc, op.from ?? '')));
    case 'test':
      if (!jsonEqual(get(doc, op.path), op.value)) throw new Error('testing value failed');
      return doc;
    default:
      throw new Error(`unexpected kind: ${JSON.stringify(op.op)}`);
  }
}

/** The operations of a patch document; throws when it is not a JSON array of operations. */
export function decodeJSONPatch(raw: Buffer): Operation[] {
  const parsed: unknown = JSON.parse(raw.toString('utf8'));
  if (!Array.isArray(parsed))
    throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  return parsed.map((item) => {
    if (
      !isContainer(item) ||
      Array.isArray(item) ||
      typeof item['op'] !== 'string' ||
      typeof item['path'] !== 'string'
    )
      throw new Error('invalid JSON patch operation');
    return item as unknown as Operation;
  });
}

/** The document with the operations applied, in order; `doc` itself is not changed. */
export function applyJSONPatch(doc: unknown, ops: readonly Operation[]): unknown {
  let out = deepCopyJSON(doc);
  for (const op of ops) out = applyOne(out, op);
  return out;
}
