// The static cost limits a CRD's rules must keep (apiextensions-apiserver pkg/apis/apiextensions/
// validation/validation.go and cel_validation.go): each rule's estimated cost times how often it can
// run in one object, each messageExpression's cost, and their total over one schema.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import { maxUint64, multiplySaturating } from './cost-estimate.js';

/** StaticEstimatedCostLimit: one expression's estimated cost. */
export const staticEstimatedCostLimit = 10_000_000n;
/** StaticEstimatedCRDCostLimit: all expressions of one schema. */
export const staticEstimatedCRDCostLimit = 100_000_000n;
/** Expressions costing less than a hundredth of the total's limit are not named when it is exceeded. */
const mostExpensiveFloor = staticEstimatedCRDCostLimit / 100n;
const mostExpensiveKept = 4;

/** kube's getCostErrorMessage: how far over its limit a cost is. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const ratio = Number(cost) / Number(limit);
  const factor =
    ratio > 100 ? 'more than 100x' : ratio < 1.5 ? `${ratio.toFixed(6)}x` : `${ratio.toFixed(1)}x`;
  return (
    `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, ` +
    'maxProperties, and maxLength where arrays, maps, and strings are declared)'
  );
}

/** How many of a child node's values one value of `schema` can hold (extractMaxElements); undefined if unbounded. */
function maxElements(schema: JSONSchemaProps): bigint | undefined {
  const atLeastZero = (n: number): bigint => BigInt(Math.max(0, n));
  if (schema.type === 'object' && schema.additionalProperties !== undefined)
    return schema.maxProperties === undefined ? undefined : atLeastZero(schema.maxProperties);
  if (schema.type === 'array')
    return schema.maxItems === undefined ? undefined : atLeastZero(schema.maxItems);
  return 1n;
}

/**
 * How many values of a child of `parent` one object can hold, given how many of `parent` it can
 * (undefined: unbounded, as under a list without maxItems).
 */
export function childCardinality(
  parent: JSONSchemaProps,
  cardinality: bigint | undefined,
): bigint | undefined {
  if (cardinality === undefined) return undefined;
  const factor = maxElements(parent);
  return factor === undefined ? undefined : multiplySaturating(cardinality, factor);
}

interface ExpressionCost {
  readonly path: FieldPath;
  readonly cost: bigint;
}

/** The estimated costs of one schema's expressions (TotalCost). */
export class SchemaCost {
  #total = 0n;
  readonly #mostExpensive: ExpressionCost[] = [];

  observe(path: FieldPath, cost: bigint): void {
    const total = this.#total + cost;
    this.#total = total > maxUint64 ? maxUint64 : total;
    if (cost < mostExpensiveFloor) return;
    this.#mostExpensive.push({ path, cost });
    this.#mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
    this.#mostExpensive.length = Math.min(this.#mostExpensive.length, mostExpensiveKept);
  }

  /** The errors when the total is over its limit: the costliest expressions, then the schema. */
  errors(schemaPath: FieldPath): ErrorList {
    if (this.#total <= staticEstimatedCRDCostLimit) return [];
    const errs: ErrorList = this.#mostExpensive.map(({ path }) =>
      FieldError.forbidden(
        path,
        'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      ),
    );
    const name = 'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema';
    errs.push(
      FieldError.forbidden(schemaPath, costErrorMessage(name, this.#total, staticEstimatedCRDCostLimit)),
    );
    return errs;
  }
}
