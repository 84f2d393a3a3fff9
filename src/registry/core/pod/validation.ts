// Pod validation, the common subset of ValidatePod / ValidatePodUpdate / ValidatePodStatusUpdate
// (pkg/apis/core/validation/validation.go).
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Label,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const protocols = ['TCP', 'UDP', 'SCTP'];

function validateContainer(c: Container, path: FieldPath, names: Set<string>): ErrorList {
  const errs: ErrorList = [];
  // The decoder does not enforce required fields: a body may leave the name out.
  const name = (c as Partial<Container>).name ?? '';
  if (name === '') errs.push(FieldError.required(path.child('name')));
  else {
    for (const msg of isDNS1123Label(name)) errs.push(FieldError.invalid(path.child('name'), name, msg));
    if (names.has(name)) errs.push(FieldError.duplicate(path.child('name'), name));
    names.add(name);
  }
  if ((c.image ?? '').trim() === '') errs.push(FieldError.required(path.child('image')));
  const pull = c.imagePullPolicy ?? '';
  if (pull === '') errs.push(FieldError.required(path.child('imagePullPolicy')));
  else if (!pullPolicies.includes(pull))
    errs.push(FieldError.notSupported(path.child('imagePullPolicy'), pull, pullPolicies));
  (c.ports ?? []).forEach((p, i) => {
    const pp = path.child('ports').index(i);
    if (!Number.isInteger(p.containerPort) || p.containerPort < 1 || p.containerPort > 65535)
      errs.push(
        FieldError.invalid(
          pp.child('containerPort'),
          p.containerPort,
          'must be between 1 and 65535, inclusive',
        ),
      );
    const proto = p.protocol ?? '';
    if (proto === '') errs.push(FieldError.required(pp.child('protocol')));
    else if (!protocols.includes(proto))
      errs.push(FieldError.notSupported(pp.child('protocol'), proto, protocols));
  });
  return errs;
}

/** ValidatePodSpec: containers, volumes, and the enumerated policies. */
export function validatePodSpec(spec: PodSpec | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const volumes = new Set<string>();
  (spec?.volumes ?? []).forEach((v, i) => {
    const vp = path.child('volumes').index(i).child('name');
    if (v.name === '') errs.push(FieldError.required(vp));
    else if (volumes.has(v.name)) errs.push(FieldError.duplicate(vp, v.name));
    volumes.add(v.name);
  });
  const names = new Set<string>();
  (spec?.initContainers ?? []).forEach((c, i) =>
    errs.push(...validateContainer(c, path.child('initContainers').index(i), names)),
  );
  const containers = spec?.containers ?? [];
  if (containers.length === 0) errs.push(FieldError.required(path.child('containers')));
  containers.forEach((c, i) => errs.push(...validateContainer(c, path.child('containers').index(i), names)));
  const restart = spec?.restartPolicy ?? '';
  if (restart === '') errs.push(FieldError.required(path.child('restartPolicy')));
  else if (!restartPolicies.includes(restart))
    errs.push(FieldError.notSupported(path.child('restartPolicy'), restart, restartPolicies));
  const dns = spec?.dnsPolicy ?? '';
  if (dns === '') errs.push(FieldError.required(path.child('dnsPolicy')));
  else if (!dnsPolicies.includes(dns))
    errs.push(FieldError.notSupported(path.child('dnsPolicy'), dns, dnsPolicies));
  const grace = spec?.terminationGracePeriodSeconds;
  if (grace !== undefined && grace < 0)
    errs.push(
      FieldError.invalid(
        path.child('terminationGracePeriodSeconds'),
        grace,
        'must be greater than or equal to 0',
      ),
    );
  return errs;
}

/** ValidatePod (with ValidatePodCreate's refusal of ephemeral containers). */
export function validatePod(pod: Pod): ErrorList {
  const errs = validateCoreObjectMeta(pod.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  if ((pod.spec?.ephemeralContainers ?? []).length > 0)
    errs.push(FieldError.forbidden(FieldPath.of('spec', 'ephemeralContainers'), 'cannot be set on create'));
  return [...errs, ...validatePodSpec(pod.spec, FieldPath.of('spec'))];
}

/** The fields ValidatePodUpdate lets change, in kube's words. */
const updatableFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The new spec with every updatable field taken from the old one: equal to it unless forbidden fields moved. */
function mungedSpec(spec: PodSpec, old: PodSpec): PodSpec {
  const images = (cs: Container[] | undefined, olds: Container[] | undefined): Container[] | undefined =>
    cs?.map((c, i) => {
      const prior = olds?.[i];
      return prior === undefined ? c : { ...c, image: prior.image ?? '' };
    });
  const out: PodSpec = { ...spec, containers: images(spec.containers, old.containers) ?? [] };
  const init = images(spec.initContainers, old.initContainers);
  if (init !== undefined) out.initContainers = init;
  if (old.activeDeadlineSeconds !== undefined) out.activeDeadlineSeconds = old.activeDeadlineSeconds;
  else delete out.activeDeadlineSeconds;
  if (old.tolerations !== undefined) out.tolerations = old.tolerations;
  else delete out.tolerations;
  const priorGrace = old.terminationGracePeriodSeconds;
  if (priorGrace !== undefined && priorGrace < 0 && spec.terminationGracePeriodSeconds === 1)
    out.terminationGracePeriodSeconds = priorGrace;
  return out;
}

/** ValidatePodUpdate: meta, spec validity, then only the updatable fields may differ. */
export function validatePodUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  errs.push(...validatePodSpec(pod.spec, FieldPath.of('spec')));
  const spec = pod.spec ?? { containers: [] };
  const prior = old.spec ?? { containers: [] };
  const path = FieldPath.of('spec');
  const deadline = spec.activeDeadlineSeconds;
  if (
    prior.activeDeadlineSeconds !== undefined &&
    (deadline === undefined || deadline > prior.activeDeadlineSeconds)
  )
    errs.push(
      FieldError.invalid(
        path.child('activeDeadlineSeconds'),
        deadline ?? null,
        'must be less than or equal to previous value',
      ),
    );
  const oldTolerations = prior.tolerations ?? [];
  if (!oldTolerations.every((t) => (spec.tolerations ?? []).some((n) => jsonEqual(n, t))))
    errs.push(
      FieldError.forbidden(
        path.child('tolerations'),
        'existing toleration can not be modified except its tolerationSeconds',
      ),
    );
  if (spec.containers.length !== prior.containers.length || !jsonEqual(mungedSpec(spec, prior), prior))
    errs.push(
      FieldError.forbidden(path, `pod updates may not change fields other than ${updatableFields.join(',')}`),
    );
  return errs;
}

/** ValidatePodStatusUpdate: meta, and a nominated node name must be a valid name. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated !== '')
    for (const msg of nameIsDNSSubdomain(nominated, false))
      errs.push(FieldError.invalid(FieldPath.of('status', 'nominatedNodeName'), nominated, msg));
  return errs;
}
