// CSIDriver policy (pkg/registry/storage/csidriver/strategy.go), v1 defaults (SetDefaults_CSIDriver)
// and validation (ValidateCSIDriver and ValidateCSIDriverUpdate in pkg/apis/storage/validation).
import { fsGroupPolicies, volumeLifecycleModes, type CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import {
  FieldError,
  FieldPath,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** SetDefaults_CSIDriver. */
export function setCSIDriverDefaults(driver: CSIDriver): void {
  const spec = ((driver as Partial<CSIDriver>).spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if ((spec.volumeLifecycleModes ?? []).length === 0) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

/** ValidateCSIDriver: the spec (metadata with DNS-subdomain names, then the fields). */
export function validateCSIDriver(driver: CSIDriver): ErrorList {
  return [
    ...validateObjectMeta(driver.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateCSIDriverFields(driver),
  ];
}

function validateCSIDriverFields(driver: CSIDriver): ErrorList {
  const spec = driver.spec;
  const path = FieldPath.of('spec');
  const errs: ErrorList = [];
  for (const name of ['attachRequired', 'podInfoOnMount', 'storageCapacity', 'requiresRepublish'] as const) {
    if (spec[name] === undefined) errs.push(FieldError.required(path.child(name), ''));
  }
  const policy = spec.fsGroupPolicy;
  if (policy !== undefined && !(fsGroupPolicies as readonly string[]).includes(policy)) {
    errs.push(
      FieldError.notSupported(path.child('fsGroupPolicy'), policy, [
        'File',
        'None',
        'ReadWriteOnceWithFSType',
      ]),
    );
  }
  (spec.volumeLifecycleModes ?? []).forEach((mode, i) => {
    if (!(volumeLifecycleModes as readonly string[]).includes(mode)) {
      errs.push(
        FieldError.notSupported(path.child('volumeLifecycleModes').index(i), mode, volumeLifecycleModes),
      );
    }
  });
  const audiences = new Set<string>();
  (spec.tokenRequests ?? []).forEach((t, i) => {
    const p = path.child('tokenRequests').index(i);
    if (audiences.has(t.audience)) errs.push(FieldError.duplicate(p.child('audience'), t.audience));
    audiences.add(t.audience);
    if (t.expirationSeconds !== undefined && t.expirationSeconds < 600) {
      errs.push(
        FieldError.invalid(
          p.child('expirationSeconds'),
          t.expirationSeconds,
          'may not specify a duration less than 10 minutes',
        ),
      );
    }
  });
  return errs;
}

/** ValidateCSIDriverUpdate: attachRequired and volumeLifecycleModes are immutable. */
export function validateCSIDriverUpdate(driver: CSIDriver, old: CSIDriver): ErrorList {
  const path = FieldPath.of('spec');
  return [
    ...validateCSIDriver(driver),
    ...validateImmutableField(
      driver.spec.attachRequired,
      old.spec.attachRequired,
      path.child('attachRequired'),
    ),
    ...validateImmutableField(
      driver.spec.volumeLifecycleModes,
      old.spec.volumeLifecycleModes,
      path.child('volumeLifecycleModes'),
    ),
  ];
}

export const csiDriverStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setCSIDriverDefaults,
  prepareForCreate: (_ctx, driver) => {
    setCSIDriverDefaults(driver);
  },
  validate: (_ctx, driver) => validateCSIDriver(driver),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, driver) => {
    setCSIDriverDefaults(driver);
  },
  validateUpdate: (_ctx, driver, old) => validateCSIDriverUpdate(driver, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<CSIDriver> & UpdateStrategy<CSIDriver>;

export const csiDriverDeleteStrategy = {} satisfies DeleteStrategy<CSIDriver>;
