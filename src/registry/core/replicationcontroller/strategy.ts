// ReplicationController policy (pkg/registry/core/replicationcontroller/strategy.go): create starts
// with an empty status, the main resource keeps status, /status keeps spec. The Store bumps
// metadata.generation when the spec changes; controllers report status.observedGeneration.
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setReplicationControllerDefaults } from './defaults.js';
import {
  validateReplicationController,
  validateReplicationControllerStatusUpdate,
  validateReplicationControllerUpdate,
} from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate, workloadNameWarnings } from '../pod/warnings.js';

const templatePath = FieldPath.of('spec', 'template');

export const replicationControllerStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setReplicationControllerDefaults,
  prepareForCreate: (_ctx, rc) => {
    setReplicationControllerDefaults(rc);
    rc.status = { replicas: 0 };
  },
  validate: (_ctx, rc) => validateReplicationController(rc),
  warningsOnCreate: (_ctx, rc) =>
    workloadNameWarnings(rc.metadata?.name).concat(warningsForPodTemplate(templatePath, rc.spec?.template)),
  prepareForUpdate: (_ctx, rc, old) => {
    setReplicationControllerDefaults(rc);
    rc.status = old.status ?? { replicas: 0 };
  },
  validateUpdate: (_ctx, rc, old) => validateReplicationControllerUpdate(rc, old),
  // kube 1.33 hands GetWarningsForPodTemplate the old template where the new one belongs, so an
  // update is warned about what the controller's template was; Capstan says the same.
  warningsOnUpdate: (_ctx, rc, old) =>
    rc.metadata?.generation !== old.metadata?.generation
      ? warningsForPodTemplate(templatePath, old.spec?.template)
      : [],
} satisfies CreateStrategy<ReplicationController> & UpdateStrategy<ReplicationController>;

/** replicationcontrollers/status: takes the status, keeps the spec. */
export const replicationControllerStatusStrategy = {
  ...replicationControllerStrategy,
  prepareForUpdate: (_ctx, rc, old) => {
    if (old.spec !== undefined) rc.spec = old.spec;
    else delete rc.spec;
    // status.replicas is a Go int32 without omitempty: always there.
    rc.status = { ...rc.status, replicas: rc.status?.replicas ?? 0 };
  },
  validateUpdate: (_ctx, rc, old) => validateReplicationControllerStatusUpdate(rc, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<ReplicationController>;

/** ReplicationControllers are deleted at once; their pods are the garbage collector's. */
export const replicationControllerDeleteStrategy = {} satisfies DeleteStrategy<ReplicationController>;
