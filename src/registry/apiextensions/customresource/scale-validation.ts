// The checks a custom resource's strategies make of the values the scale subresource reads
// (apiextensions-apiserver pkg/registry/customresource/validator.go, ValidateScaleSpec and
// ValidateScaleStatus): the replicas at specReplicasPath and statusReplicasPath must be int64s in
// [0, MaxInt32] when present, the selector at labelSelectorPath a string. A path that does not lead
// through objects is an error too, in unstructured.NestedFieldNoCopy's words. Error paths are the
// CRD's paths as written (`.status.replicas`), as kube's field.NewPath of them prints.
import type { KubeObject } from '../../../api/meta.js';
import { goTypeName, goValueString } from '../../../machinery/patch/go-value.js';
import { memberOf } from '../../../machinery/json/set-member.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import type { ScalePaths } from './scale-paths.js';

const maxInt32 = 2147483647;

type Nested = { readonly found: boolean; readonly value: unknown } | { readonly error: string };

// kube trims one leading period and splits the rest, so `.status.replicas` is status → replicas.
const fieldsOf = (path: string): string[] => (path.startsWith('.') ? path.slice(1) : path).split('.');
const jsonPath = (fields: readonly string[]): string => `.${fields.join('.')}`;

/** unstructured.NestedFieldNoCopy: a null on the way ends the walk as not found. */
function nestedField(obj: KubeObject, fields: readonly string[]): Nested {
  let at: unknown = obj;
  for (const [i, f] of fields.entries()) {
    if (at === null || at === undefined) return { found: false, value: undefined };
    if (typeof at !== 'object' || Array.isArray(at)) {
      const shown = `${goValueString(at)} is of the type ${goTypeName(at)}`;
      return {
        error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${shown}, expected map[string]interface{}`,
      };
    }
    if (!Object.hasOwn(at, f)) return { found: false, value: undefined };
    at = memberOf(at as Record<string, unknown>, f);
  }
  return { found: true, value: at };
}

/** unstructured.NestedInt64 (or NestedString): the error text when the value is not of that type. */
function nestedOfType(obj: KubeObject, path: string, type: 'int64' | 'string'): Nested {
  const fields = fieldsOf(path);
  const got = nestedField(obj, fields);
  if ('error' in got || !got.found) return got;
  const v = got.value;
  const ok = type === 'int64' ? typeof v === 'number' && Number.isInteger(v) : typeof v === 'string';
  if (ok) return got;
  const shown = `${goValueString(v)} is of the type ${goTypeName(v)}`;
  return { error: `${jsonPath(fields)} accessor error: ${shown}, expected ${type}` };
}

function validateReplicas(obj: KubeObject, path: string): ErrorList {
  const got = nestedOfType(obj, path, 'int64');
  // kube reports the zero value it got back along with the accessor error.
  if ('error' in got) return [FieldError.invalid(FieldPath.of(path), 0, got.error)];
  const replicas = typeof got.value === 'number' ? got.value : 0;
  if (replicas < 0)
    return [FieldError.invalid(FieldPath.of(path), replicas, 'should be a non-negative integer')];
  if (replicas > maxInt32)
    return [
      FieldError.invalid(FieldPath.of(path), replicas, `should be less than or equal to ${String(maxInt32)}`),
    ];
  return [];
}

/** ValidateScaleSpec: the replicas at specReplicasPath; nothing without the scale subresource. */
export function validateScaleSpec(obj: KubeObject, scale: ScalePaths | undefined): ErrorList {
  return scale === undefined ? [] : validateReplicas(obj, scale.specReplicasPath);
}

/** ValidateScaleStatus: the replicas at statusReplicasPath and the selector at labelSelectorPath. */
export function validateScaleStatus(obj: KubeObject, scale: ScalePaths | undefined): ErrorList {
  if (scale === undefined) return [];
  const errs = validateReplicas(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const got = nestedOfType(obj, scale.labelSelectorPath, 'string');
    if ('error' in got) errs.push(FieldError.invalid(FieldPath.of(scale.labelSelectorPath), '', got.error));
  }
  return errs;
}
