// fields.ParseSelector and ParseAndTransformSelector of k8s.io/apimachinery/pkg/fields/selector.go.
import { compareGoStrings } from '../validation/index.js';
import { unescapeValue } from './escape.js';
import {
  Selector,
  type FieldOperator,
  type FieldRequirement,
  type SelectorResult,
  type TransformFunc,
} from './selector.js';

// Commas split terms unless escaped; the escapes stay in the terms for unescapeValue.
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// `==` is tried before `=` so it leaves no '=' on the value. The field cannot be escaped: the
// first operator found splits the term.
const termOperators: readonly { text: string; operator: FieldOperator }[] = [
  { text: '!=', operator: '!=' },
  { text: '==', operator: '=' },
  { text: '=', operator: '=' },
];

function splitTerm(term: string): { field: string; operator: FieldOperator; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op.text, i)) {
        return { field: term.slice(0, i), operator: op.operator, rhs: term.slice(i + op.text.length) };
      }
    }
  }
  return undefined;
}

const identity: TransformFunc = (field, value) => ({ ok: true, field, value });

/**
 * Parses `a=b`, `a==b` and `a!=b` terms joined by commas, values escaped with `\`. Terms come
 * out sorted, as kube sorts them. `transform` (kube's ParseAndTransformSelector) rewrites each
 * term, e.g. to convert field labels. Failures carry kube's messages.
 */
export function parseSelector(selector: string, transform: TransformFunc = identity): SelectorResult {
  const parts = splitTerms(selector).sort(compareGoStrings);
  const terms: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) {
      return { ok: false, message: `invalid selector: '${selector}'; can't understand '${part}'` };
    }
    const value = unescapeValue(split.rhs);
    if (!value.ok) return value;
    terms.push({ field: split.field, operator: split.operator, value: value.value });
  }
  return Selector.of(terms).transform(transform);
}
