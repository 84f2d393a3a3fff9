// client-go's util/jsonpath (jsonpath.go) over decoded JSON, as CRD printer columns use it: the
// column's path is parsed as the template `{<path>}` and evaluated with missing keys allowed.
import { filterOperators, GoFloat, goPrintValue, goTypeName } from './go-values.js';
import { type JSONPathNode, type ListNode, parseJSONPathTemplate } from './jsonpath-parser.js';

export type { JSONPathNode, ListNode } from './jsonpath-parser.js';

export interface JSONPath {
  /** The path as written in the column, without braces. */
  readonly path: string;
  readonly root: ListNode;
}

/** Parses a column's JSONPath (`.spec.replicas`) as kube does, by wrapping it as `{<path>}`. */
export function parseJSONPath(path: string): JSONPath {
  try {
    return { path, root: parseJSONPathTemplate(`{${path}}`) };
  } catch (err) {
    throw new Error(`invalid JSONPath ${JSON.stringify(path)}: ${(err as Error).message}`, { cause: err });
  }
}

export interface FindOptions {
  /** An empty result instead of an error for a missing field (kube's columns set it). */
  readonly allowMissingKeys?: boolean;
}

type Values = unknown[];

const isNil = (v: unknown): boolean => v === null || v === undefined;
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoFloat);

/** The children a wildcard visits: map values (by key), list items, a string's bytes. */
function children(v: unknown): Values {
  if (Array.isArray(v)) return v as Values;
  if (isMap(v)) {
    return Object.keys(v)
      .sort()
      .map((k) => v[k]);
  }
  if (typeof v === 'string') return [...new TextEncoder().encode(v)];
  return [];
}

class Evaluator {
  readonly #allowMissingKeys: boolean;

  constructor(options: FindOptions) {
    this.#allowMissingKeys = options.allowMissingKeys ?? false;
  }

  walk(input: Values, node: JSONPathNode): Values {
    switch (node.type) {
      case 'list':
        return node.nodes.reduce<Values>((cur, n) => this.walk(cur, n), input);
      case 'text':
        return [node.text];
      case 'field':
        return this.#field(input, node.name);
      case 'array':
        return input.flatMap((v) => (isNil(v) ? [] : slice(v, node.params)));
      case 'filter':
        return input.flatMap((v) => this.#filter(v, node));
      case 'int':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new GoFloat(node.value));
      case 'bool':
        return input.map(() => node.value);
      case 'wildcard':
        return input.flatMap(children);
      case 'recursive':
        return recursive(input);
      case 'union':
        return node.nodes.flatMap((n) => this.walk(input, n));
      case 'identifier':
        throw new Error(`unrecognized identifier ${node.name}`);
    }
  }

  #field(input: Values, name: string): Values {
    if (input.length === 0) return [];
    const results: Values = [];
    for (const v of input) {
      if (isMap(v) && Object.hasOwn(v, name)) results.push(v[name]);
    }
    if (results.length === 0 && !this.#allowMissingKeys) throw new Error(`${name} is not found`);
    return results;
  }

  #filter(v: unknown, node: Extract<JSONPathNode, { type: 'filter' }>): Values {
    if (!Array.isArray(v)) {
      throw new Error(`${goPrintValue(v)} is not array or slice and cannot be filtered`);
    }
    return (v as Values).filter((item) => {
      if (node.operator === 'exists') {
        try {
          return this.walk([item], node.left).length > 0;
        } catch {
          return false;
        }
      }
      const compare = filterOperators[node.operator];
      if (compare === undefined) throw new Error(`unrecognized filter operator ${node.operator}`);
      const lefts = this.walk([item], node.left);
      if (lefts.length !== 1) throw new Error('can only compare one element at a time');
      const rights = this.walk([item], node.right);
      if (rights.length !== 1) throw new Error('can only compare one element at a time');
      return compare(lefts[0], rights[0]);
    });
  }
}

function slice(v: unknown, params: Extract<JSONPathNode, { type: 'array' }>['params']): Values {
  if (!Array.isArray(v)) throw new Error(`${goTypeName(v)} is not array or slice`);
  const items = v as Values;
  const length = items.length;
  const [first, second, third] = params;
  let start = first.known ? first.value : 0;
  if (start < 0) start += length;
  let end = second.known ? second.value : length;
  // `[-1]` derives its end 0 from -1+1: the end of the list
  if (end < 0 || (end === 0 && second.derived)) end += length;
  if (end !== start) {
    if (start >= length || start < 0) {
      throw new Error(`array index out of bounds: index ${start}, length ${length}`);
    }
    if (end > length) throw new Error(`array index out of bounds: index ${end - 1}, length ${length}`);
  }
  // Go's Slice3 takes the third value as a capacity bound, not a step
  if (end < start || (third.known && (third.value < end || third.value > length))) {
    throw new Error(`slice bounds out of range [${start}:${end}]`);
  }
  return items.slice(start, end);
}

/** `..`: every value that has children, each followed by its descendants. */
function recursive(input: Values): Values {
  const out: Values = [];
  for (const v of input) {
    if (isNil(v)) continue;
    const kids = children(v);
    if (kids.length === 0) continue;
    out.push(v, ...recursive(kids));
  }
  return out;
}

const toJSONValue = (v: unknown): unknown => (v instanceof GoFloat ? v.value : v);

/**
 * FindResults: one result list per top-level node of the template (an action, or text outside
 * braces); a JSON null found in the data is a `null` result. Throws what kube's evaluation fails on
 * (an index out of bounds, a non-list indexed, a filter comparing mismatched types, a missing field
 * unless allowMissingKeys).
 */
export function findResults(path: JSONPath, data: unknown, options: FindOptions = {}): unknown[][] {
  const evaluator = new Evaluator(options);
  return path.root.nodes.map((node) => evaluator.walk([data], node).map(toJSONValue));
}
