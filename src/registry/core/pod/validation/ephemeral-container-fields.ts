// validateEphemeralContainers (pkg/apis/core/validation/validation.go): the checks every container
// gets, an image without surrounding spaces, a name unique across every kind of container, a target
// among the pod's other containers, none of the fields an ephemeral container may not have (in the
// Go struct's order), and no subPath.
import type { Container } from '../../../../api/core/v1/container.js';
import type { EphemeralContainer } from '../../../../api/core/v1/ephemeral-container.js';
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import { validateContainerCommon, type PodContext } from './containers.js';

const notForEphemeral = 'cannot be set for an Ephemeral Container';

/**
 * The fields outside kube's allowedEphemeralContainerFields, in EphemeralContainerCommon's order,
 * with how a value counts as set: a pointer (or a list) by being there, a struct held by value by
 * having a member set (reflect.DeepEqual against its zero value).
 */
const forbiddenFields: readonly (readonly [keyof Container, 'present' | 'struct'])[] = [
  ['ports', 'present'],
  ['resources', 'struct'],
  ['resizePolicy', 'present'],
  ['restartPolicy', 'present'],
  ['livenessProbe', 'present'],
  ['readinessProbe', 'present'],
  ['startupProbe', 'present'],
  ['lifecycle', 'present'],
];

const isZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  v === 0 ||
  (typeof v === 'object' && Object.values(v).every(isZero));

export function validateEphemeralContainers(
  spec: PodSpec,
  at: PodContext & { readonly path: FieldPath },
): ErrorList {
  const ephemeral = spec.ephemeralContainers ?? [];
  if (ephemeral.length === 0) return [];
  const errs: ErrorList = [];
  const others = new Set([...spec.containers, ...(spec.initContainers ?? [])].map((c) => c.name));
  const all = new Set(others);
  ephemeral.forEach((ec, i) => {
    const p = at.path.index(i);
    const c = ec as Container;
    errs.push(...validateContainerCommon(c, at, p));
    const image = c.image ?? '';
    if (image !== image.trim())
      errs.push(FieldError.invalid(p.child('image'), image, 'must not have leading or trailing whitespace'));
    // The decoder does not enforce required fields: a body may leave the name out.
    const name = (ec as Partial<EphemeralContainer>).name ?? '';
    if (all.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    else all.add(name);
    const target = ec.targetContainerName ?? '';
    if (target !== '' && !others.has(target))
      errs.push(FieldError.notFound(p.child('targetContainerName'), target));
    for (const [field, kind] of forbiddenFields) {
      const value = c[field];
      // A JSON null leaves a Go pointer nil, as a missing member does.
      const set = kind === 'present' ? (value as unknown) != null : !isZero(value);
      if (set) errs.push(FieldError.forbidden(p.child(field), notForEphemeral));
    }
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      const mount = p.child('volumeMounts').index(j);
      if ((vm.subPath ?? '') !== '') errs.push(FieldError.forbidden(mount.child('subPath'), notForEphemeral));
      if ((vm.subPathExpr ?? '') !== '')
        errs.push(FieldError.forbidden(mount.child('subPathExpr'), notForEphemeral));
    });
  });
  return errs;
}
