// Owner references, as ValidateOwnerReferences in k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import type { OwnerReference } from '../../api/meta.js';
import { FieldError } from './field-error.js';
import type { ErrorList } from './error-list.js';
import type { FieldPath } from './field-path.js';

// Kinds that may never own another object, as `group/version, Kind=kind`.
const bannedOwners: ReadonlySet<string> = new Set(['/v1, Kind=Event']);

// A decoded body may lack fields its type requires: Go would see them empty.
const orEmpty = (v: string | undefined): string => v ?? '';

// schema.FromAPIVersionAndKind: an unparsable apiVersion leaves group and version empty.
function ownerGVK(ref: OwnerReference): { group: string; version: string } {
  const apiVersion = orEmpty(ref.apiVersion);
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return { group: '', version: '' };
}

// The reference in the field order of Go's struct, so its JSON reads as kube's does.
function canonical(ref: OwnerReference): OwnerReference {
  const out: OwnerReference = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid };
  if (ref.controller !== undefined) out.controller = ref.controller;
  if (ref.blockOwnerDeletion !== undefined) out.blockOwnerDeletion = ref.blockOwnerDeletion;
  return out;
}

function validateOwnerReference(ref: OwnerReference, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const gvk = ownerGVK(ref);
  if (gvk.version === '')
    errs.push(
      FieldError.invalid(path.child('apiVersion'), orEmpty(ref.apiVersion), 'version must not be empty'),
    );
  if (orEmpty(ref.kind) === '')
    errs.push(FieldError.invalid(path.child('kind'), orEmpty(ref.kind), 'kind must not be empty'));
  if (orEmpty(ref.name) === '')
    errs.push(FieldError.invalid(path.child('name'), orEmpty(ref.name), 'name must not be empty'));
  if (orEmpty(ref.uid) === '')
    errs.push(FieldError.invalid(path.child('uid'), orEmpty(ref.uid), 'uid must not be empty'));
  const gvkText = `${gvk.group}/${gvk.version}, Kind=${ref.kind}`;
  if (bannedOwners.has(gvkText)) {
    errs.push(FieldError.invalid(path, canonical(ref), `${gvkText} is disallowed from being an owner`));
  }
  return errs;
}

/** Each reference is complete and not an Event; at most one is the controller. */
export function validateOwnerReferences(
  refs: readonly OwnerReference[] | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  if (refs === undefined) return errs;
  let firstController = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller !== true) continue;
    const current = `${ref.kind}/${ref.name}`;
    if (firstController === '') {
      firstController = current;
      continue;
    }
    errs.push(
      FieldError.invalid(
        path,
        refs.map(canonical),
        `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
      ),
    );
  }
  return errs;
}
