// A label selector, as the Selector interface of k8s.io/apimachinery/pkg/labels/selector.go.
import { compareGoStrings } from '../validation/index.js';
import { compileRequirement, type Labels, type Matcher } from './compile-requirement.js';
import { requirementString, type Requirement } from './requirement.js';

// kube's RequiresExactMatch: the first requirement on a key decides, and only `=`, `==` or an
// `in` with one value pins it.
function exactMatches(requirements: readonly Requirement[]): ReadonlyMap<string, string> {
  const decided = new Set<string>();
  const exact = new Map<string, string>();
  for (const r of requirements) {
    if (decided.has(r.key)) continue;
    decided.add(r.key);
    const pins = r.operator === '=' || r.operator === '==' || r.operator === 'in';
    if (pins && r.values.length === 1) exact.set(r.key, r.values[0] ?? '');
  }
  return exact;
}

/**
 * An immutable, precompiled AND of requirements sorted by key. `Selector.everything()` matches
 * all label sets, `Selector.nothing()` none.
 */
export class Selector {
  static readonly #everything = new Selector([], true);
  static readonly #nothing = new Selector([], false);

  readonly #requirements: readonly Requirement[];
  readonly #matchers: readonly Matcher[];
  readonly #selectable: boolean;
  readonly #exact: ReadonlyMap<string, string>;

  private constructor(requirements: readonly Requirement[], selectable: boolean) {
    this.#requirements = requirements;
    this.#matchers = requirements.map(compileRequirement);
    this.#selectable = selectable;
    this.#exact = exactMatches(requirements);
  }

  /** Matches every label set. */
  static everything(): Selector {
    return Selector.#everything;
  }

  /** Matches no label set. */
  static nothing(): Selector {
    return Selector.#nothing;
  }

  /** A selector of already validated requirements (see `newRequirement`). */
  static of(requirements: readonly Requirement[]): Selector {
    if (requirements.length === 0) return Selector.#everything;
    // A stable sort; kube's sort.Sort may order requirements on one key either way.
    const sorted = [...requirements].sort((a, b) => compareGoStrings(a.key, b.key));
    return new Selector(Object.freeze(sorted), true);
  }

  /** Whether every requirement holds for these labels. */
  matches(labels: Labels): boolean {
    if (!this.#selectable) return false;
    const matchers = this.#matchers;
    for (let i = 0; i < matchers.length; i++) {
      if (!(matchers[i] as Matcher)(labels)) return false;
    }
    return true;
  }

  /** True when the selector restricts nothing (Nothing is not empty). */
  empty(): boolean {
    return this.#selectable && this.#requirements.length === 0;
  }

  /** The requirements, sorted by key. */
  get requirements(): readonly Requirement[] {
    return this.#requirements;
  }

  /** False only for `nothing()`, which selects no object at all. */
  get selectable(): boolean {
    return this.#selectable;
  }

  /** A new selector with these requirements added. */
  add(...requirements: Requirement[]): Selector {
    if (!this.#selectable) return this;
    return Selector.of([...this.#requirements, ...requirements]);
  }

  /** The one value `label` must have for the selector to match, if the selector pins it. */
  requiresExactMatch(label: string): string | undefined {
    return this.#exact.get(label);
  }

  /** Every label the selector pins to one value, with that value (for indexed lookups). */
  exactMatchRequirements(): ReadonlyMap<string, string> {
    return this.#exact;
  }

  /** The selector in its string syntax, as kube prints it. */
  toString(): string {
    return this.#requirements.map(requirementString).join(',');
  }
}
