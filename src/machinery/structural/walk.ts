// Check closures for Go structs, maps and slices: type errors with kube's field context, unknown
// fields with kube's strict paths, pruning, nulls as Go stores them, and schema defaults.
import { goOmits } from '../../api/schema/go-omit-empty.js';
import { deepCopyJSON } from '../json/deep-copy.js';
import { countValueKeys } from './duplicate-scan.js';
import { jsonValueKind, saveTypeError, strictPath, unknownFieldError } from './go-errors.js';
import type { Check, Node, WalkState } from './node.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value of the wrong JSON kind: Go skips it, saving a type error (null is no error). */
function mismatch(v: unknown, st: WalkState, goType: string): unknown {
  if (v === null) return v;
  if (st.countKeys) st.keys += countValueKeys(v);
  saveTypeError(st, jsonValueKind(v), goType);
  return v;
}

/** The values a scalar's Go zero can be (a Quantity's is "0"): looked up only for these. */
const isScalarZero = (v: unknown): boolean => v === '' || v === 0 || v === false || v === '0';

export function structCheck(node: Node): Check {
  const fields = node.fields ?? {};
  const name = node.structName ?? '';
  const defaults = node.defaults ?? [];
  const preserve = node.preserveUnknown === true;
  const omitEmpty = node.omitEmpty;
  // Most structs have none: their visits then skip the lookup.
  const zeros = node.zeros !== undefined && Object.keys(node.zeros).length > 0 ? node.zeros : undefined;
  const visit = (obj: Record<string, unknown>, key: string, st: WalkState): void => {
    const field = fields[key];
    st.keys++;
    if (field === undefined) {
      if (st.countKeys) st.keys += countValueKeys(obj[key]);
      if (preserve) return;
      if (st.collectUnknown) st.strict.push(unknownFieldError(strictPath(st.path, key)));
      if (st.prune) Reflect.deleteProperty(obj, key);
      return;
    }
    const value = obj[key];
    // A JSON null leaves a Go field at its zero value, which kube does not write back.
    if (value === null) {
      Reflect.deleteProperty(obj, key);
      return;
    }
    st.path.push(key);
    st.structs.push(name);
    const out = field.check(value, st);
    st.path.pop();
    st.structs.pop();
    // Decoding into the Go struct loses a scalar's zero value and a null pointer: defaulting,
    // admission and the field manager see such an omitempty field absent, as kube's do. An empty
    // list or map stays: Go decodes it to an empty slice or map, not nil, which code tells apart
    // (`managedFields: []` resets them); encoding leaves it out (go-member-order.ts).
    const omit = omitEmpty?.[key];
    if (omit !== undefined && omit !== 'empty' && goOmits(omit, out)) Reflect.deleteProperty(obj, key);
    // An optional scalar without omitempty at its zero: absent in memory as when read back from storage.
    else if (zeros !== undefined && isScalarZero(out) && out === zeros[key]) Reflect.deleteProperty(obj, key);
    else if (out !== value) obj[key] = out;
  };
  return (v, st) => {
    if (!isObject(v)) return mismatch(v, st, node.goType);
    if (st.decoded?.has(v) === true) return v;
    if (st.sortedKeys) {
      for (const key of Object.keys(v).sort()) visit(v, key, st);
    } else {
      for (const key in v) visit(v, key, st);
    }
    if (st.defaults && defaults.length > 0) {
      const keys = st.keys;
      for (const [key, def] of defaults) {
        if (v[key] !== undefined) continue;
        // Each object gets its own copy of an object default; a scalar is shared as it is.
        const value = typeof def === 'object' ? deepCopyJSON(def) : def;
        const field = fields[key];
        v[key] = field === undefined ? value : field.check(value, st);
      }
      st.keys = keys;
    }
    return v;
  };
}

export function mapCheck(node: Node): Check {
  const elem = node.elem;
  if (elem === undefined) throw new Error('map node without element');
  const zero = elem.zero;
  const isStruct = elem.kind === 'struct';
  const visit = (obj: Record<string, unknown>, key: string, st: WalkState): void => {
    let value = obj[key];
    st.keys++;
    if (value === null) {
      if (zero !== undefined) obj[key] = zero;
      if (!isStruct) return;
      // Go leaves a zero struct there: an empty object, which validation then judges.
      value = obj[key] = {};
    }
    st.path.push(key);
    st.structs.push('');
    const out = elem.check(value, st);
    st.path.pop();
    st.structs.pop();
    if (out !== value) obj[key] = out;
  };
  return (v, st) => {
    if (!isObject(v)) return mismatch(v, st, node.goType);
    if (st.decoded?.has(v) === true) return v;
    if (st.sortedKeys) {
      for (const key of Object.keys(v).sort()) visit(v, key, st);
    } else {
      for (const key in v) visit(v, key, st);
    }
    return v;
  };
}

export function listCheck(node: Node): Check {
  const elem = node.elem;
  if (elem === undefined) throw new Error('list node without element');
  const zero = elem.zero;
  const isStruct = elem.kind === 'struct';
  return (v, st) => {
    if (!Array.isArray(v)) return mismatch(v, st, node.goType);
    const list = v as unknown[];
    if (st.decoded?.has(list) === true) return list;
    for (let i = 0; i < list.length; i++) {
      let value = list[i];
      if (value === null) {
        if (zero !== undefined) list[i] = zero;
        if (!isStruct) continue;
        // Go leaves a zero struct there: an empty object, which validation then judges.
        value = list[i] = {};
      }
      st.path.push(i);
      st.structs.push('');
      const out = elem.check(value, st);
      st.path.pop();
      st.structs.pop();
      if (out !== value) list[i] = out;
    }
    return list;
  };
}
