// The document as evanphx/json-patch v4 (patch.go, lazyNode) holds it: a value stays as it was
// decoded until an operation walks into it, and only then becomes a map or a list of nodes. A
// value of the patch is its JSON text (number text such as 1.0, escapes as written); one of the
// object patched is its decoded JSON, whose text is what Go's encoder writes for it. Go decodes a
// JSON null in a map or list to a nil pointer (here: null), while a patch's `"value": null` is a
// node whose text is missing (raw null); both write null.
import { copyAsJSON } from '../../json/copy-as-json.js';
import { escapeGoHTML } from '../../json/go-json-text.js';
import { setMember } from '../../json/set-member.js';
import { compareGoKeys } from '../../json/sorted-members.js';
import { compactRaw, rawElements, rawMembers } from './raw-json.js';
import { parseWellFormed } from '../../json/well-formed.js';

export type Doc = Map<string, LazyNode | null>;
export type Ary = (LazyNode | null)[];

export interface LazyNode {
  /** The value's text; null for a patch's null, or when the node holds decoded JSON. */
  raw: string | null;
  /** Decoded JSON of the object patched (undefined: the node has text). */
  json: unknown;
  doc: Doc | undefined;
  ary: Ary | undefined;
  which: 'raw' | 'doc' | 'ary';
}

export const rawNode = (raw: string | null): LazyNode => ({
  raw,
  json: undefined,
  doc: undefined,
  ary: undefined,
  which: 'raw',
});

const jsonNode = (json: unknown): LazyNode => ({
  raw: null,
  json,
  doc: undefined,
  ary: undefined,
  which: 'raw',
});

/** A member or element as json.Unmarshal leaves it in a *lazyNode: null is a nil pointer. */
const fromText = (raw: string): LazyNode | null => (raw === 'null' ? null : rawNode(raw));
const fromJSON = (v: unknown): LazyNode | null => (v === null || v === undefined ? null : jsonNode(v));

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The members of decoded JSON, or undefined when it is no object. */
export function docOfJSON(v: unknown): Doc | undefined {
  if (!isObject(v)) return undefined;
  const doc: Doc = new Map();
  for (const [key, value] of Object.entries(v)) if (value !== undefined) doc.set(key, fromJSON(value));
  return doc;
}

/** The elements of decoded JSON, or undefined when it is no array. */
export const aryOfJSON = (v: unknown): Ary | undefined => (Array.isArray(v) ? v.map(fromJSON) : undefined);

/** The members of an object's text (a repeated key: the last one), or undefined. */
export function docOf(raw: string): Doc | undefined {
  const members = rawMembers(raw);
  if (members === undefined) return undefined;
  const doc: Doc = new Map();
  for (const [key, value] of members) doc.set(key, fromText(value));
  return doc;
}

/** The elements of an array's text, or undefined. */
export function aryOf(raw: string): Ary | undefined {
  return rawElements(raw)?.map(fromText);
}

/** A patch-added null: Go has no text to look into there (v4.12 panics walking into it). */
export const isTextless = (n: LazyNode): boolean => n.raw === null && n.json === undefined;

/** Whether findObject takes the node for an array (isArray: its text starts with '['). */
export const looksLikeArray = (n: LazyNode): boolean =>
  n.json === undefined ? /^[ \n\t]*\[/.test(n.raw ?? '') : Array.isArray(n.json);

/** lazyNode.intoDoc / tryDoc: the node as a map, decoding it once. */
export function intoDoc(n: LazyNode): Doc | undefined {
  if (n.which === 'doc') return n.doc;
  const doc = n.json !== undefined ? docOfJSON(n.json) : n.raw === null ? undefined : docOf(n.raw);
  if (doc === undefined) return undefined;
  n.doc = doc;
  n.which = 'doc';
  return doc;
}

/** lazyNode.intoAry / tryAry. */
export function intoAry(n: LazyNode): Ary | undefined {
  if (n.which === 'ary') return n.ary;
  let ary: Ary | undefined;
  if (n.json !== undefined) ary = aryOfJSON(n.json);
  else ary = n.raw === null ? undefined : aryOf(n.raw);
  if (ary === undefined) return undefined;
  n.ary = ary;
  n.which = 'ary';
  return ary;
}

/** The compact text Go has for a node that is neither map nor list ('' for none). */
function scalarText(n: LazyNode): string {
  if (n.json !== undefined) return escapeGoHTML(JSON.stringify(n.json));
  return n.raw === null ? '' : compactRaw(n.raw);
}

/** json.Marshal of a container: a map's keys sorted, a node still text as its text compacted. */
export function marshalContainer(c: Doc | Ary): string {
  if (Array.isArray(c)) return `[${c.map(marshalNode).join(',')}]`;
  const keys = [...c.keys()].sort(compareGoKeys);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${marshalNode(c.get(k) ?? null)}`).join(',')}}`;
}

export function marshalNode(n: LazyNode | null): string {
  if (n === null) return 'null';
  if (n.which === 'doc' && n.doc !== undefined) return marshalContainer(n.doc);
  if (n.which === 'ary' && n.ary !== undefined) return marshalContainer(n.ary);
  if (n.json !== undefined) return JSON.stringify(n.json);
  return n.raw === null ? 'null' : compactRaw(n.raw);
}

/** A fresh JSON value of a container (as JSON.parse reads its text): a map's members sorted as Go writes them. */
export function containerValue(c: Doc | Ary): unknown {
  if (Array.isArray(c)) return c.map(nodeValue);
  const out: Record<string, unknown> = {};
  for (const k of [...c.keys()].sort(compareGoKeys)) setMember(out, k, nodeValue(c.get(k) ?? null));
  return out;
}

function nodeValue(n: LazyNode | null): unknown {
  if (n === null) return null;
  if (n.which === 'doc' && n.doc !== undefined) return containerValue(n.doc);
  if (n.which === 'ary' && n.ary !== undefined) return containerValue(n.ary);
  if (n.json !== undefined) return copyAsJSON(n.json);
  return n.raw === null ? null : copyAsJSON(parseWellFormed(n.raw));
}

function equalDocs(a: Doc, b: Doc): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k)) return false;
    const ov = b.get(k) ?? null;
    if ((v === null) !== (ov === null)) return false;
    if (v !== null && ov !== null && !equalNodes(v, ov)) return false;
  }
  return true;
}

/**
 * lazyNode.equal: objects by members (any order), arrays by elements, anything else by its compact
 * text, so 1 and 1.0 differ, as do "a" and "\u0061". Like Go's, it decodes the nodes it compares.
 * (Go dereferences a null array element and panics; here two nulls are equal.)
 */
export function equalNodes(n: LazyNode, o: LazyNode): boolean {
  if (n.which === 'raw' && intoDoc(n) === undefined && intoAry(n) === undefined) {
    if (o.which !== 'raw') return false;
    return scalarText(n) === scalarText(o);
  }
  if (n.which === 'doc') {
    if (o.which === 'raw' && intoDoc(o) === undefined) return false;
    if (o.which !== 'doc' || n.doc === undefined || o.doc === undefined) return false;
    return equalDocs(n.doc, o.doc);
  }
  const a = n.ary ?? [];
  const b = o.which === 'ary' ? o.ary : intoAry(o);
  if (b === undefined || a.length !== b.length) return false;
  return a.every((v, i) => {
    const ov = b[i] ?? null;
    if (v === null || ov === null) return v === ov;
    return equalNodes(v, ov);
  });
}
