// Evaluating compiled rules against a custom resource (apiextensions-apiserver pkg/apiserver/
// schema/cel/validation.go, Validator.Validate): each node's rules with self bound to its value and,
// for transition rules, oldSelf to the correlated old value (object fields, granular map entries,
// list-type=map items by key). On update, a failed rule that does not use oldSelf ratchets as in
// kube 1.33 (CRDValidationRatcheting, ratchetingOptions.shouldRatchetError): where the value at its
// node (or, for a node that does not correlate, at its nearest ancestor that does) equals the old
// one, the failure is a warning rather than an error. Rules under allOf, anyOf, oneOf and not are
// refused with the CRD (structural.ts), as kube 1.33 refuses them. An object's evaluations share
// kube's runtime budget (RuntimeCELCostBudget), each held to the per-call limit (metering.ts); past
// either, validation stops with kube's error.
import type { CelInput } from '@bufbuild/cel';
import type { JSONSchemaProps, ValidationRule } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { memberOf } from '../../../../machinery/json/set-member.js';
import { goQuote } from '../../../../machinery/structural/index.js';
import { childOf, FieldError, FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import type { Correlation } from '../schema/correlation.js';
import { celGoErrorText } from './error-text.js';
import type { CelLibrary } from './load.js';
import { costLimitExceeded, type MeteredProgram } from './metering.js';
import { fieldErrorForReason, ruleErrorString, ruleMessageOrDefault } from './rule-errors.js';
import { outOfBudget, runtimeCostBudget } from './runtime-cost.js';
import { resourceRootToCel, toCel } from './values.js';

type Program = MeteredProgram;

export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program: Program;
  readonly messageProgram?: Program;
  readonly usesOldSelf: boolean;
  /** The normalized fieldPath, '' for none. */
  readonly fieldPath: string;
}

export interface RuleNode {
  readonly schema: JSONSchemaProps;
  readonly rules: readonly CompiledRule[];
  readonly properties: ReadonlyMap<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
  readonly items?: RuleNode;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (path: FieldPath | undefined, key: string): FieldPath =>
  path === undefined ? FieldPath.of(`[${key}]`) : path.key(key);
const indexOf = (path: FieldPath | undefined, i: number): FieldPath =>
  path === undefined ? FieldPath.of(`[${String(i)}]`) : path.index(i);

interface Visit {
  readonly node: RuleNode;
  readonly value: unknown;
  readonly old: unknown;
  readonly path: FieldPath | undefined;
  readonly root: boolean;
  /** The visit of the enclosing value and this value's member name or index in it. */
  readonly parent: Visit | undefined;
  readonly step: string | number;
}

/** Ratcheting of an update: the correlation of the whole object and where ratcheted failures go. */
export interface RuleRatchet {
  readonly correlation: Correlation;
  warn(message: string): void;
}

interface Walk {
  readonly errs: ErrorList;
  readonly ratchet: RuleRatchet | undefined;
  /** What is left of the object's runtime cost budget; -1 once validation has stopped. */
  remaining: number;
}

/** Adds the error after which no rule runs. */
function stop(w: Walk, err: FieldError): void {
  w.errs.push(err);
  w.remaining = -1;
}

/** A message expression's text, or the error that stops validation. */
type MessageOutcome = { readonly text?: string } | { readonly stop: string };

interface RatchetAt {
  readonly current: Correlation | undefined;
  readonly nearest: Correlation | undefined;
}

/** kube's ratchetingOptions for a visit, found from the root when a rule fails there. */
function ratchetAt(v: Visit, root: Correlation): RatchetAt {
  if (v.parent === undefined) return { current: root, nearest: undefined };
  const up = ratchetAt(v.parent, root);
  if (up.current === undefined) return up;
  if (up.nearest === undefined && (v.step === 'apiVersion' || v.step === 'kind'))
    return { current: undefined, nearest: undefined };
  const current = typeof v.step === 'number' ? up.current.index(v.step) : up.current.key(v.step);
  return { current, nearest: up.current };
}

function ratchets(v: Visit, ratchet: RuleRatchet | undefined): boolean {
  if (ratchet === undefined) return false;
  const at = ratchetAt(v, ratchet.correlation);
  return (at.current ?? at.nearest)?.unchanged() === true;
}

/** The old items of a list-type=map list, by their key values. */
function oldItemsByKey(schema: JSONSchemaProps, old: unknown): (item: unknown) => unknown {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old)) return () => undefined;
  const keyOfItem = (item: unknown): string =>
    JSON.stringify(keys.map((k) => (isRecord(item) ? item[k] : undefined) ?? null));
  const byKey = new Map((old as unknown[]).map((item) => [keyOfItem(item), item] as const));
  return (item) => byKey.get(keyOfItem(item));
}

export class CustomResourceRuleValidator {
  readonly #lib: CelLibrary;
  readonly #root: RuleNode;

  constructor(lib: CelLibrary, root: RuleNode) {
    this.#lib = lib;
    this.#root = root;
  }

  /**
   * The failures of `obj` (and transition rules against `old` on update), in kube's texts; with
   * `ratchet`, an update's failures at unchanged values are warned of instead.
   */
  validate(
    obj: Record<string, unknown>,
    old: Record<string, unknown> | undefined,
    ratchet?: RuleRatchet,
  ): ErrorList {
    const w: Walk = { errs: [], ratchet, remaining: runtimeCostBudget };
    const root = { node: this.#root, value: obj, old, path: undefined, root: true };
    this.#visit(w, { ...root, parent: undefined, step: '' });
    return w.errs;
  }

  #visit(w: Walk, v: Visit): void {
    if (v.value === null || v.value === undefined || w.remaining < 0) return;
    this.#evaluate(w, v);
    const { node, value, old } = v;
    if (Array.isArray(value) && node.items !== undefined) {
      const oldOf = oldItemsByKey(node.schema, old);
      value.forEach((item, i) => {
        this.#visit(w, {
          node: node.items as RuleNode,
          value: item,
          old: oldOf(item),
          path: indexOf(v.path, i),
          root: false,
          parent: v,
          step: i,
        });
      });
      return;
    }
    if (!isRecord(value)) return;
    const oldMap = isRecord(old) && node.schema['x-kubernetes-map-type'] !== 'atomic' ? old : {};
    for (const [k, child] of Object.entries(value)) {
      const prop = node.properties.get(k);
      if (prop !== undefined)
        this.#visit(w, {
          node: prop,
          value: child,
          old: memberOf(oldMap, k),
          path: childOf(v.path, k),
          root: false,
          parent: v,
          step: k,
        });
      else if (node.additionalProperties !== undefined)
        this.#visit(w, {
          node: node.additionalProperties,
          value: child,
          old: memberOf(oldMap, k),
          path: keyOf(v.path, k),
          root: false,
          parent: v,
          step: k,
        });
    }
  }

  #evaluate(w: Walk, v: Visit): void {
    const { node } = v;
    if (node.rules.length === 0) return;
    const { schema } = node;
    const typeName = schema.type ?? '';
    if (w.remaining <= 0) {
      stop(w, FieldError.invalid(v.path, typeName, outOfBudget));
      return;
    }
    // The root, new and old, is seen as a resource (kind, apiVersion, metadata's name).
    const value = (x: unknown): CelInput =>
      v.root && isRecord(x) ? resourceRootToCel(x, schema) : toCel(x, schema);
    const self = value(v.value);
    for (const compiled of node.rules) {
      const { rule } = compiled;
      const hasOld = v.old !== undefined && v.old !== null;
      if (compiled.usesOldSelf && !hasOld && rule.optionalOldSelf !== true) continue;
      const bindings: Record<string, CelInput> = { self };
      if (compiled.usesOldSelf) {
        // With optionalOldSelf, oldSelf is an optional: none on a create or a new member.
        const { optional } = this.#lib;
        const old = hasOld ? value(v.old) : undefined;
        if (rule.optionalOldSelf !== true) bindings['oldSelf'] = old ?? null;
        else bindings['oldSelf'] = old === undefined ? optional.none() : optional.of(old);
      }
      this.#rule(w, { v, compiled, bindings, typeName });
      if (w.remaining < 0) return;
    }
  }

  /** One rule's evaluation, charged to the walk's budget; its failure, if any, added to the walk. */
  #rule(
    w: Walk,
    r: { v: Visit; compiled: CompiledRule; bindings: Record<string, CelInput>; typeName: string },
  ): void {
    const { v, compiled, bindings, typeName } = r;
    const { rule } = compiled;
    const { value: result, cost } = compiled.program(bindings);
    if (cost > w.remaining) {
      stop(w, FieldError.invalid(v.path, typeName, outOfBudget));
      return;
    }
    w.remaining -= cost;
    if (result === true) return;
    if (result !== false) {
      const err = FieldError.invalid(v.path, typeName, this.#runtimeError(result, rule));
      if (this.#lib.cel.isCelError(result) && result.message === costLimitExceeded) stop(w, err);
      else w.errs.push(err);
      return;
    }
    const path = compiled.fieldPath === '' ? v.path : childOf(v.path, compiled.fieldPath);
    const message = this.#message(w, compiled, bindings);
    const err =
      'stop' in message
        ? FieldError.invalid(path, typeName, message.stop)
        : fieldErrorForReason(path, {
            typeName,
            detail: message.text ?? ruleMessageOrDefault(rule),
            reason: rule.reason,
          });
    // Transition rules never ratchet: their verdict already depends on the old value.
    if (!compiled.usesOldSelf && w.ratchet !== undefined && ratchets(v, w.ratchet))
      w.ratchet.warn(err.error());
    else w.errs.push(err);
    if ('stop' in message) w.remaining = -1;
  }

  /**
   * A messageExpression's text (none when it fails: the static message is used), charged to the
   * budget; or, past the budget or the per-call limit, the error that stops validation.
   */
  #message(w: Walk, compiled: CompiledRule, bindings: Record<string, CelInput>): MessageOutcome {
    if (compiled.messageProgram === undefined) return {};
    const { value, cost } = compiled.messageProgram(bindings);
    if (cost > w.remaining)
      return {
        stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
      };
    if (this.#lib.cel.isCelError(value) && value.message === costLimitExceeded) {
      const source = compiled.rule.messageExpression ?? '';
      return {
        stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`,
      };
    }
    w.remaining -= cost;
    if (typeof value !== 'string') return {};
    const text = value.trim();
    return text === '' || text.includes('\n') || text.length > 5 * 1024 ? {} : { text };
  }

  #runtimeError(result: unknown, rule: ValidationRule): string {
    const { cel } = this.#lib;
    const ruleText = ruleErrorString(rule);
    if (!cel.isCelError(result)) return `no such overload evaluating rule: ${ruleText}`;
    const message = result.message;
    if (message === costLimitExceeded)
      return `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`;
    if (message.startsWith('found no matching overload'))
      return `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`;
    return `${celGoErrorText(message)} evaluating rule: ${ruleText}`;
  }
}
