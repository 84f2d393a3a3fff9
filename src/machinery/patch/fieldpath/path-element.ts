// One step of a field path (sigs.k8s.io/structured-merge-diff fieldpath/element.go): a struct or
// map field, the key of an associative-list item, the value of a set item, or a list index.
import { goJson, goNumber, goQuote } from '../../validation/go-format.js';
import { compareJSON, isJSONObject, type JSONValue } from '../json.js';
import { setMember } from '../../json/set-member.js';
import { sortSmall } from '../../json/small-sort.js';

export interface KeyField {
  readonly name: string;
  readonly value: JSONValue;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JSONValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => ({ kind: 'field', name });

const byName = (a: KeyField, b: KeyField): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * A key element; its fields are kept sorted by name as kube's FieldList is. Fields already in
 * order (a list's keys mostly are) are kept as given, not copied: the element holds them from now.
 */
export function keyElement(fields: readonly KeyField[]): PathElement {
  for (let i = 1; i < fields.length; i++) {
    if (byName(fields[i - 1] as KeyField, fields[i] as KeyField) > 0)
      return { kind: 'key', fields: sortSmall(fields.slice(), byName) };
  }
  return { kind: 'key', fields };
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) break;
    if (x.name !== y.name) return x.name < y.name ? -1 : 1;
    const c = compareJSON(x.value, y.value);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** PathElement.Compare: fields, then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field': {
      const name = (b as typeof a).name;
      return a.name === name ? 0 : a.name < name ? -1 : 1;
    }
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareJSON(a.value, (b as typeof a).value);
    case 'index':
      return Math.sign(a.index - (b as typeof a).index);
  }
}

/** value.ToString: how a value reads inside a path. */
function valueString(v: JSONValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${k}=${valueString(v[k] ?? null)}`)
    .join(',')}}`;
}

/** PathElement.String: `.name`, `[name="x"]`, `[="v"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${valueString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

/**
 * `f:` and a field name, made once per name: the same names come with every object, and a key
 * made afresh costs a concatenation and an interning each time it names a property. Bounded:
 * emptied when full.
 */
const fieldKeys = new Map<string, string>();
const maxFieldKeys = 8192;

export function fieldKey(name: string): string {
  let key = fieldKeys.get(name);
  if (key === undefined) {
    key = `f:${name}`;
    if (fieldKeys.size >= maxFieldKeys) fieldKeys.clear();
    fieldKeys.set(name, key);
  }
  return key;
}

/** The key of an element in the fieldsV1 encoding: `f:name`, `k:{"name":"x"}`, `v:"v"`, `i:0`. */
export function pathElementKey(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return fieldKey(pe.name);
    case 'key': {
      const obj: Record<string, JSONValue> = {};
      for (const f of pe.fields) setMember(obj, f.name, f.value);
      return `k:${goJson(obj)}`;
    }
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

export class InvalidPathElement extends Error {}

function parseJSON(text: string, key: string): JSONValue {
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    throw new InvalidPathElement(`invalid path element key ${JSON.stringify(key)}`);
  }
}

/** Parses a fieldsV1 key back into its element. */
export function parsePathElementKey(key: string): PathElement {
  const body = key.slice(2);
  switch (key.slice(0, 2)) {
    case 'f:':
      return fieldElement(body);
    case 'v:':
      return { kind: 'value', value: parseJSON(body, key) };
    case 'i:': {
      if (!/^-?\d+$/.test(body))
        throw new InvalidPathElement(`invalid index in path element key ${JSON.stringify(key)}`);
      return { kind: 'index', index: Number(body) };
    }
    case 'k:': {
      const obj = parseJSON(body, key);
      if (!isJSONObject(obj))
        throw new InvalidPathElement(`invalid key in path element key ${JSON.stringify(key)}`);
      return keyElement(Object.entries(obj).map(([name, value]) => ({ name, value })));
    }
    default:
      throw new InvalidPathElement(`unknown path element type in key ${JSON.stringify(key)}`);
  }
}
