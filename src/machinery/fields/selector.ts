// A field selector, as the Selector of k8s.io/apimachinery/pkg/fields/selector.go, flattened
// to one AND of equality terms.
import { escapeValue } from './escape.js';

/** Field values of an object, by field label (`metadata.name`, `status.phase`). */
export type Fields = Readonly<Record<string, string>>;

export const fieldOperators = ['=', '!='] as const;
export type FieldOperator = (typeof fieldOperators)[number];

/** One term: `field=value` or `field!=value`. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

export type TransformResult =
  | { readonly ok: true; readonly field: string; readonly value: string }
  | { readonly ok: false; readonly message: string };

/**
 * Rewrites one term, e.g. a kind's field label conversion. Returning an empty field and value
 * drops the term.
 */
export type TransformFunc = (field: string, value: string) => TransformResult;

export type SelectorResult =
  { readonly ok: true; readonly selector: Selector } | { readonly ok: false; readonly message: string };

// A field an object lacks reads as '' (kube's Fields.Get).
function get(fields: Fields, field: string): string {
  return Object.hasOwn(fields, field) ? (fields[field] ?? '') : '';
}

/** An immutable AND of field terms, kept in the order parsed. */
export class Selector {
  static readonly #everything = new Selector([]);

  readonly #terms: readonly FieldRequirement[];

  private constructor(terms: readonly FieldRequirement[]) {
    this.#terms = terms;
  }

  /** Matches every object. */
  static everything(): Selector {
    return Selector.#everything;
  }

  static of(terms: readonly FieldRequirement[]): Selector {
    return terms.length === 0 ? Selector.#everything : new Selector(Object.freeze([...terms]));
  }

  /** Whether every term holds for these field values. */
  matches(fields: Fields): boolean {
    for (const t of this.#terms) {
      if ((get(fields, t.field) === t.value) !== (t.operator === '=')) return false;
    }
    return true;
  }

  /** True when the selector restricts nothing. */
  empty(): boolean {
    return this.#terms.length === 0;
  }

  get requirements(): readonly FieldRequirement[] {
    return this.#terms;
  }

  /** The value `field` must equal for a match, if some `=` term pins it. */
  requiresExactMatch(field: string): string | undefined {
    for (const t of this.#terms) {
      if (t.operator === '=' && t.field === field) return t.value;
    }
    return undefined;
  }

  /** A copy with `fn` applied to every term; the first failure is returned as is. */
  transform(fn: TransformFunc): SelectorResult {
    const next: FieldRequirement[] = [];
    for (const t of this.#terms) {
      const r = fn(t.field, t.value);
      if (!r.ok) return r;
      if (r.field === '' && r.value === '') continue;
      next.push({ field: r.field, operator: t.operator, value: r.value });
    }
    return { ok: true, selector: Selector.of(next) };
  }

  /** The selector in its string syntax, values escaped: `a=b,c!=d\,e`. */
  toString(): string {
    return this.#terms.map((t) => `${t.field}${t.operator}${escapeValue(t.value)}`).join(',');
  }
}
