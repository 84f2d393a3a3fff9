// A rule's fieldPath checked against the schema (ValidFieldPath in apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go): `.name` and `['key']` steps through properties and
// additionalProperties; the result is the normalized path kube appends to the node's path.
import { goSimpleEscapes } from '../go-escapes.js';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';

const escapes: Readonly<Record<string, string>> = { ...goSimpleEscapes, "'": "'" };

/** The steps of a JSON path, or an error text. */
function tokens(path: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (m === null) return 'unexpected end of JSON path';
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (path[i] === '[') {
      const m = /^'((?:\\.|[^'\\])*)'\]/.exec(path.slice(i + 1));
      if (m === null) return 'expected single quoted string';
      const raw = m[1] ?? '';
      if (/\\[^abfnrtv'\\]/.test(raw)) return 'invalid string literal';
      out.push(raw.replace(/\\(.)/g, (_, c: string) => escapes[c] ?? c));
      i += 1 + m[0].length;
    } else return `expected [ or . but got: ${path.slice(i)}`;
  }
  return out;
}

/** The normalized path (`spec.foo[bar]`) or undefined when the path does not resolve. */
export function validFieldPath(path: string, schema: JSONSchemaProps): string | undefined {
  const steps = tokens(path);
  if (typeof steps === 'string') return undefined;
  let node: JSONSchemaProps = schema;
  let out = '';
  for (const step of steps) {
    if (node.properties !== undefined) {
      const next = node.properties[step];
      if (next === undefined) return undefined;
      node = next;
      out += out === '' ? step : `.${step}`;
    } else if (typeof node.additionalProperties === 'object') {
      node = node.additionalProperties;
      out += `[${step}]`;
    } else return undefined;
  }
  return out;
}
