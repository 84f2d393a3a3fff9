// A policy's variables as its expressions read them (k8s.io/apiserver/pkg/admission/plugin/cel/
// composition.go with pkg/cel/lazy): a map whose entries are evaluated on first read and kept for
// the rest of one phase (kube's ForInput: the match conditions, the validations, the messages, the
// audit annotations each have their own). A variable nothing reads is never evaluated. A failed
// variable reads as the error `composited variable "<name>" fails to evaluate: …`, and so do has()
// of it and `in`, which evaluate it as kube's do. Its evaluation is held to the per-call limit
// as its own program, and its cost is added up here for the phase to charge to its budget once the
// expression that read it ends.
import type * as Cel from '@bufbuild/cel';
import { celGoErrorText } from '../../../../registry/apiextensions/customresource/cel/error-text.js';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import type { CompiledExpression } from './compiled-policy.js';

/** What the phase's variables cost since the phase last took it. */
export class CompositionCost {
  #cost = 0;

  add(cost: number): void {
    this.#cost += cost;
  }

  /** kube's GetAndResetCost. */
  take(): number {
    const cost = this.#cost;
    this.#cost = 0;
    return cost;
  }
}

export interface NamedExpression {
  readonly name: string;
  readonly expression: CompiledExpression;
}

/** @bufbuild/cel tells its maps by this symbol's member (isCelMap). */
const celMapBrand = Symbol.for('@bufbuild/cel/map');

/**
 * The `variables` value of one phase. `bindings` are the phase's, which hold this map too (a
 * variable reads the ones before it).
 */
export function lazyVariables(
  lib: CelLibrary,
  variables: readonly NamedExpression[],
  at: { readonly bindings: Record<string, Cel.CelInput>; readonly cost: CompositionCost },
): Cel.CelMap {
  const { cel } = lib;
  const declared = new Map(variables.map((v) => [v.name, v.expression]));
  const evaluated = new Map<string, unknown>();
  const evaluate = (name: string, e: CompiledExpression): unknown => {
    if (e.program === undefined)
      return cel.celError(`composited variable "${name}" fails to compile: ${e.error ?? 'unknown'}`);
    let value: unknown;
    try {
      const evaluation = e.program(at.bindings);
      at.cost.add(evaluation.cost);
      value = evaluation.value;
    } catch (err) {
      value = cel.celError(err instanceof Error ? err.message : String(err));
    }
    return cel.isCelError(value)
      ? cel.celError(`composited variable "${name}" fails to evaluate: ${celGoErrorText(value.message)}`)
      : value;
  };
  const get = (key: unknown): Cel.CelValue | undefined => {
    if (typeof key !== 'string') return undefined;
    if (evaluated.has(key)) return evaluated.get(key) as Cel.CelValue;
    const e = declared.get(key);
    if (e === undefined) return undefined;
    const value = evaluate(key, e);
    evaluated.set(key, value);
    return value as Cel.CelValue;
  };
  function* entries(): IterableIterator<[string, Cel.CelValue]> {
    for (const name of declared.keys()) yield [name, get(name) as Cel.CelValue];
  }
  const map = {
    [celMapBrand]: {},
    size: declared.size,
    get,
    // As kube's lazy map's Find: has() (and `in`) evaluate the variable, and are its error when it
    // fails. @bufbuild/cel passes what a map's has() answers on as the test's value, so the error
    // value goes where the boolean would.
    has: (key: unknown): boolean => {
      if (typeof key !== 'string' || !declared.has(key)) return false;
      const value = get(key);
      return cel.isCelError(value) ? (value as unknown as boolean) : true;
    },
    keys: () => declared.keys(),
    *values() {
      for (const [, v] of entries()) yield v;
    },
    entries,
    forEach(callback: (value: Cel.CelValue, key: string, m: unknown) => void) {
      for (const [k, v] of entries()) callback(v, k, map);
    },
    [Symbol.iterator]: entries,
  };
  return map as unknown as Cel.CelMap;
}
