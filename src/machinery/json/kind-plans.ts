// Plans compiled per definition and looked up by a kind: the lookup by apiVersion and kind is kept
// too, so that every object's visit costs one map probe, not the scheme's kind lookup.
import type { Scheme } from '../../api/scheme.js';

/** Plans by `apiVersion/kind`, each the plan of the kind's definition; null for a kind the scheme does not know. */
export class KindPlans<T> {
  readonly #byKind = new Map<string, T | null>();
  readonly #scheme: Scheme;
  readonly #ofDefinition: (definition: string) => T | null;

  constructor(scheme: Scheme, ofDefinition: (definition: string) => T | null) {
    this.#scheme = scheme;
    this.#ofDefinition = ofDefinition;
  }

  get(apiVersion: string, kind: string): T | null {
    const key = `${apiVersion}/${kind}`;
    let plan = this.#byKind.get(key);
    if (plan === undefined) {
      const info = this.#scheme.kindFor(apiVersion, kind);
      plan = info === undefined ? null : this.#ofDefinition(info.definition);
      this.#byKind.set(key, plan);
    }
    return plan;
  }
}
