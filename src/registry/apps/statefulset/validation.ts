// StatefulSet validation (ValidateStatefulSet, ValidateStatefulSetUpdate, ValidateStatefulSetStatus
// in pkg/apis/apps/validation/validation.go) and its v1 defaults (SetDefaults_StatefulSet).
import type { StatefulSet, StatefulSetSpec, StatefulSetStatus } from '../../../api/apps/v1/stateful-set.js';
import {
  FieldError,
  validateNonnegativeField,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMetaUpdate } from '../../core/namespace/finalizer-names.js';
import { setPersistentVolumeClaimDefaults } from '../../core/persistentvolumeclaim/strategy.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import {
  availableNotAboveReady,
  nonnegativeFields,
  notAboveReplicas,
  specPath,
  validateCollisionCountUpdate,
  validateSelectedTemplate,
  validateWorkload,
  validateWorkloadStatusUpdate,
} from '../workload/validation.js';

/** Fills the defaults in place: OrderedReady, RollingUpdate from partition 0, Retain, 1 replica, history 10. */
export function setStatefulSetDefaults(sts: StatefulSet): void {
  const spec = (sts.spec ??= {});
  if ((spec.podManagementPolicy ?? '') === '') spec.podManagementPolicy = 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if ((strategy.type ?? '') === '') {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate !== undefined)
    strategy.rollingUpdate.partition ??= 0;
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if ((retention.whenDeleted ?? '') === '') retention.whenDeleted = 'Retain';
  if ((retention.whenScaled ?? '') === '') retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  setPodTemplateSpecDefaults((spec.template ??= {}));
  for (const claim of spec.volumeClaimTemplates ?? []) setPersistentVolumeClaimDefaults(claim);
}

const retentionPolicies = ['Retain', 'Delete'];

function validateStrategies(spec: StatefulSetSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const policy = spec.podManagementPolicy ?? '';
  if (policy === '') errs.push(FieldError.required(path.child('podManagementPolicy')));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(
      FieldError.invalid(path.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"),
    );
  const strategy = spec.updateStrategy ?? {};
  const sp = path.child('updateStrategy');
  switch (strategy.type ?? '') {
    case '':
      errs.push(FieldError.required(sp));
      break;
    case 'OnDelete':
      if (strategy.rollingUpdate !== undefined)
        errs.push(
          FieldError.invalid(
            sp.child('rollingUpdate'),
            strategy.rollingUpdate,
            "only allowed for updateStrategy 'RollingUpdate'",
          ),
        );
      break;
    case 'RollingUpdate': {
      const partition = strategy.rollingUpdate?.partition;
      if (partition !== undefined)
        errs.push(...validateNonnegativeField(partition, sp.child('rollingUpdate', 'partition')));
      break;
    }
    default:
      errs.push(FieldError.invalid(sp, strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  const rp = path.child('persistentVolumeClaimRetentionPolicy');
  for (const key of ['whenDeleted', 'whenScaled'] as const) {
    const value = retention?.[key];
    if (value !== undefined && !retentionPolicies.includes(value))
      errs.push(FieldError.notSupported(rp.child(key), value, retentionPolicies));
  }
  return errs;
}

/**
 * The template as its pods will be: each volumeClaimTemplate a persistentVolumeClaim volume of the same
 * name, unless the template already has a volume by that name (the controller's updateStorage, which
 * kube's validation mirrors since 1.34; 1.33 left the template's spec unvalidated).
 */
function withClaimVolumes(spec: StatefulSetSpec): StatefulSetSpec {
  const template = spec.template;
  const claims = spec.volumeClaimTemplates ?? [];
  if (template === undefined || claims.length === 0) return spec;
  const volumes = [...(template.spec?.volumes ?? [])];
  const names = new Set(volumes.map((v) => v.name));
  for (const claim of claims) {
    const name = claim.metadata?.name ?? '';
    if (name === '' || names.has(name)) continue;
    names.add(name);
    volumes.push({ name, persistentVolumeClaim: { claimName: name } });
  }
  const withVolumes: PodTemplateSpec = { ...template, spec: { containers: [], ...template.spec, volumes } };
  return { ...spec, template: withVolumes };
}

/** ValidateStatefulSetSpec. */
export function validateStatefulSetSpec(spec: StatefulSetSpec, path: FieldPath): ErrorList {
  const errs = validateStrategies(spec, path);
  errs.push(
    ...nonnegativeFields(
      {
        revisionHistoryLimit: spec.revisionHistoryLimit,
        replicas: spec.replicas ?? 0,
        minReadySeconds: spec.minReadySeconds ?? 0,
      },
      path,
    ),
  );
  if (spec.ordinals !== undefined)
    errs.push(...validateNonnegativeField(spec.ordinals.start ?? 0, path.child('ordinals.start')));
  errs.push(
    ...validateSelectedTemplate(withClaimVolumes(spec), path, {
      selectorFor: 'statefulset',
      kindName: 'StatefulSet',
      deadlineForbidden: true,
    }),
  );
  return errs;
}

export function validateStatefulSet(sts: StatefulSet): ErrorList {
  return validateWorkload(sts, validateStatefulSetSpec);
}

const mutableSpecFields = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
] as const;

/** ValidateStatefulSetUpdate: only the mutable spec fields may change. */
export function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): ErrorList {
  const errs = [
    ...validateCoreObjectMetaUpdate(sts.metadata ?? {}, old.metadata ?? {}),
    ...validateStatefulSetSpec(sts.spec ?? {}, specPath),
  ];
  const immutable = (spec: StatefulSetSpec | undefined): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(spec ?? {}).filter(([k]) => !(mutableSpecFields as readonly string[]).includes(k)),
    );
  const next = immutable(sts.spec);
  const prior = immutable(old.spec);
  if (!jsonEqual(next, prior))
    errs.push(
      FieldError.forbidden(
        specPath,
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return errs;
}

/** ValidateStatefulSetStatus. */
export function validateStatefulSetStatus(status: StatefulSetStatus, path: FieldPath): ErrorList {
  const replicas = status.replicas ?? 0;
  const counters = {
    readyReplicas: status.readyReplicas,
    currentReplicas: status.currentReplicas,
    updatedReplicas: status.updatedReplicas,
    availableReplicas: status.availableReplicas,
  };
  const errs = nonnegativeFields(
    {
      replicas,
      ...counters,
      observedGeneration: status.observedGeneration,
      collisionCount: status.collisionCount,
    },
    path,
  );
  errs.push(...notAboveReplicas(counters, replicas, path));
  errs.push(...availableNotAboveReady(status, path, 'status.readyReplicas'));
  return errs;
}

/** ValidateStatefulSetStatusUpdate: the status, and collisionCount never goes down. */
export function validateStatefulSetStatusUpdate(sts: StatefulSet, old: StatefulSet): ErrorList {
  return [
    ...validateWorkloadStatusUpdate(sts, old, validateStatefulSetStatus),
    ...validateCollisionCountUpdate(sts.status, old.status),
  ];
}
