// meta/v1 DeleteOptions and Preconditions as a request body carries them.
import type { Preconditions, TypeMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { atomicList, bool, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';

export const DELETE_OPTIONS = metaV1('DeleteOptions');
export const PRECONDITIONS = metaV1('Preconditions');

/** The wire form of DeleteOptions (a body of DELETE). */
export interface DeleteOptionsBody extends TypeMeta {
  dryRun?: string[];
  gracePeriodSeconds?: number;
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
  orphanDependents?: boolean;
  preconditions?: Preconditions;
  propagationPolicy?: string;
}

export const deleteOptionsModule: APIModule = {
  definitions: {
    [DELETE_OPTIONS]: struct('Options of a delete request.', {
      apiVersion: str('Versioned schema of this representation.'),
      dryRun: atomicList(
        { type: 'string' },
        'When set to ["All"], the request is processed but nothing is persisted.',
      ),
      gracePeriodSeconds: int64('Seconds before the object is removed; zero deletes at once.'),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool(
        'Deletes an object that cannot be read from storage; may break the cluster.',
      ),
      kind: str('REST resource this object represents.'),
      orphanDependents: bool('Deprecated: use propagationPolicy. Whether dependents are orphaned.'),
      preconditions: ref(PRECONDITIONS, 'Conditions the object must meet for the delete to go ahead.'),
      propagationPolicy: str('How dependents are collected: Orphan, Background or Foreground.'),
    }),
    [PRECONDITIONS]: struct('Conditions an operation checks before it runs.', {
      resourceVersion: str('The object must have this resourceVersion.'),
      uid: str('The object must have this UID.'),
    }),
  },
  goTypes: {
    [DELETE_OPTIONS]: { propagationPolicy: 'v1.DeletionPropagation' },
    [PRECONDITIONS]: { uid: 'types.UID' },
  },
  // apiVersion and kind travel in the runtime.Unknown envelope, not in the message.
  protobuf: {
    [DELETE_OPTIONS]: {
      gracePeriodSeconds: pointer(1),
      preconditions: pointer(2),
      orphanDependents: pointer(3),
      propagationPolicy: pointer(4),
      dryRun: 5,
      ignoreStoreReadErrorWithClusterBreakingPotential: pointer(6),
    },
    [PRECONDITIONS]: { uid: pointer(1), resourceVersion: pointer(2) },
  },
};
