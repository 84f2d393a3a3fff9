// LimitRange validation (ValidateLimitRange, validateLimitRangeTypeName and
// validateLimitRangeResourceName in pkg/apis/core/validation/validation.go). kube ranges over the
// resource maps; here every resource is checked in sorted order, so errors come in a stable order.
import type { LimitRange, LimitRangeItem, ResourceList } from '../../../api/core/v1/limit-range.js';
import { limitTypes } from '../../../api/core/v1/limit-range.js';
import {
  FieldError,
  FieldPath,
  isQualifiedName,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import {
  approximateFloat,
  compareQuantities,
  maxMilliValue,
  milliValue,
  quantityOf,
  roundUpToScale,
  type Quantity,
} from '../pod/quantity.js';
import {
  isOvercommitAllowed,
  sortedResources,
  validateContainerResourceName,
  validateResourceName,
} from '../resourcequota/resource-names.js';

const standardLimitTypes: ReadonlySet<string> = new Set(limitTypes);

/** validateLimitRangeTypeName. */
function validateLimitRangeTypeName(type: string, path: FieldPath): ErrorList {
  const errs = isQualifiedName(type).map((msg) => FieldError.invalid(path, type, msg));
  if (errs.length > 0) return errs;
  if (!type.includes('/') && !standardLimitTypes.has(type))
    errs.push(FieldError.invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

/** validateLimitRangeResourceName: container rules for Pod and Container, plain names for the rest. */
function validateLimitRangeResourceName(type: string, name: string, path: FieldPath): ErrorList {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(name, path)
    : validateResourceName(name, path);
}

type Bound = 'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';

/** Go's %f: six decimals. */
const goFloat = (n: number): string =>
  Number.isFinite(n) ? n.toFixed(6) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';

/** Value() (or MilliValue() when `milli`) as a float, the way kube divides them. */
const asFloat = (q: Quantity, milli: boolean): number =>
  milli ? Number(milliValue(q)) : approximateFloat(roundUpToScale(q, 0));

/** The ratio bound against max/min, as kube computes it: in milli units when all three fit. */
function ratioLimit(ratio: Quantity, min: Quantity, max: Quantity): [value: number, limit: number] {
  const milli = [ratio, min, max].every((v) => compareQuantities(roundUpToScale(v, 0), maxMilliValue) < 0);
  const value = milli ? asFloat(ratio, true) / 1000 : asFloat(ratio, false);
  return [value, asFloat(max, milli) / asFloat(min, milli)];
}

/** The comparisons between one resource's bounds in an item. */
function validateBounds(item: LimitRangeItem, resource: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const text = (bound: Bound): string | undefined => item[bound]?.[resource];
  const [min, max, def, req, ratio] = [
    text('min'),
    text('max'),
    text('default'),
    text('defaultRequest'),
    text('maxLimitRequestRatio'),
  ];
  // a > b for two quantity texts; a text that does not parse compares as nothing, as NaN did.
  const gt = (a: string, b: string): boolean => {
    const [x, y] = [quantityOf(a), quantityOf(b)];
    return x !== undefined && y !== undefined && compareQuantities(x, y) > 0;
  };
  const at = (bound: Bound): FieldPath => path.child(bound).key(resource);
  if (min !== undefined && max !== undefined && gt(min, max))
    errs.push(FieldError.invalid(at('min'), min, `min value ${min} is greater than max value ${max}`));
  if (req !== undefined && min !== undefined && gt(min, req))
    errs.push(
      FieldError.invalid(
        at('defaultRequest'),
        req,
        `min value ${min} is greater than default request value ${req}`,
      ),
    );
  if (req !== undefined && max !== undefined && gt(req, max))
    errs.push(
      FieldError.invalid(
        at('defaultRequest'),
        req,
        `default request value ${req} is greater than max value ${max}`,
      ),
    );
  if (req !== undefined && def !== undefined && gt(req, def))
    errs.push(
      FieldError.invalid(
        at('defaultRequest'),
        req,
        `default request value ${req} is greater than default limit value ${def}`,
      ),
    );
  if (def !== undefined && min !== undefined && gt(min, def))
    errs.push(
      FieldError.invalid(at('default'), min, `min value ${min} is greater than default value ${def}`),
    );
  if (def !== undefined && max !== undefined && gt(def, max))
    errs.push(
      FieldError.invalid(at('default'), max, `default value ${def} is greater than max value ${max}`),
    );
  if (ratio !== undefined && gt('1', ratio))
    errs.push(FieldError.invalid(at('maxLimitRequestRatio'), ratio, `ratio ${ratio} is less than 1`));
  const [ratioQ, minQ, maxQ] = [ratio, min, max].map((v) => (v === undefined ? undefined : quantityOf(v)));
  if (ratio !== undefined && ratioQ !== undefined && minQ !== undefined && maxQ !== undefined) {
    const [value, limit] = ratioLimit(ratioQ, minQ, maxQ);
    if (value > limit)
      errs.push(
        FieldError.invalid(
          at('maxLimitRequestRatio'),
          ratio,
          `ratio ${ratio} is greater than max/min = ${goFloat(limit)}`,
        ),
      );
  }
  if (
    !isOvercommitAllowed(resource) &&
    def !== undefined &&
    req !== undefined &&
    (gt(def, req) || gt(req, def))
  )
    errs.push(
      FieldError.invalid(
        at('defaultRequest'),
        req,
        `default value ${def} must equal to defaultRequest value ${req} in ${resource}`,
      ),
    );
  return errs;
}

/** One item; `types` holds the types of the items before it. */
function validateItem(given: LimitRangeItem, path: FieldPath, types: Set<string>): ErrorList {
  // A body may leave out the required type; Go decodes it as "".
  const item = { ...given, type: (given as Partial<LimitRangeItem>).type ?? '' };
  const errs = validateLimitRangeTypeName(item.type, path.child('type'));
  if (types.has(item.type)) errs.push(FieldError.duplicate(path.child('type'), item.type));
  types.add(item.type);
  const keys = new Set<string>();
  const names = (bound: Bound, list: ResourceList | undefined): void => {
    for (const [name] of sortedResources(list)) {
      errs.push(...validateLimitRangeResourceName(item.type, name, path.child(bound).key(name)));
      keys.add(name);
    }
  };
  names('max', item.max);
  names('min', item.min);
  if (item.type === 'Pod') {
    if (Object.keys(item.default ?? {}).length > 0)
      errs.push(FieldError.forbidden(path.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length > 0)
      errs.push(
        FieldError.forbidden(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"),
      );
  } else {
    names('default', item.default);
    names('defaultRequest', item.defaultRequest);
  }
  if (
    item.type === 'PersistentVolumeClaim' &&
    item.min?.['storage'] === undefined &&
    item.max?.['storage'] === undefined
  )
    errs.push(
      FieldError.required(
        path.child('limits'),
        'either minimum or maximum storage value is required, but neither was provided',
      ),
    );
  names('maxLimitRequestRatio', item.maxLimitRequestRatio);
  // A Pod item's defaults are refused above and take no part in the comparisons.
  const compared = item.type === 'Pod' ? { ...item, default: {}, defaultRequest: {} } : item;
  for (const resource of [...keys].sort()) errs.push(...validateBounds(compared, resource, path));
  return errs;
}

/** ValidateLimitRange. */
export function validateLimitRange(lr: LimitRange): ErrorList {
  const errs = validateCoreObjectMeta(lr.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  const path = FieldPath.of('spec', 'limits');
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    errs.push(...validateItem(item, path.index(i), types));
  });
  return errs;
}

/** The strategy's ValidateUpdate: the metadata update, and the new object as on create. */
export function validateLimitRangeUpdate(lr: LimitRange, old: LimitRange): ErrorList {
  return [...validateCoreObjectMetaUpdate(lr.metadata ?? {}, old.metadata ?? {}), ...validateLimitRange(lr)];
}
