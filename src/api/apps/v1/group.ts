// apps/v1: the group version, its definition names, and the pieces its kinds share.
import { apiDefinitions } from '../../schema/api-module.js';
import { ref, str, struct } from '../../schema/builders.js';
import { TIME } from '../../meta/v1/object-meta.js';
import type { Schema } from '../../schema/types.js';

export const appsV1 = { group: 'apps', version: 'v1' } as const;
export const appsV1Def = apiDefinitions('apps', 'v1');

/** The status condition every apps kind carries (type, status, times, reason, message). */
export interface AppsCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const apiVersion = str('Versioned schema of this representation.');
export const kind = str('REST resource this object represents.');

/** A condition struct; deployments add lastUpdateTime. */
export function conditionSchema(what: string, withUpdateTime = false): Schema {
  return struct(
    `The state of a ${what} at a certain point.`,
    {
      ...(withUpdateTime ? { lastUpdateTime: ref(TIME, 'The last time this condition was updated.') } : {}),
      lastTransitionTime: ref(TIME, 'Last time the condition transitioned from one status to another.'),
      message: str('A human readable message indicating details about the transition.'),
      reason: str("The reason for the condition's last transition."),
      status: str('Status of the condition, one of True, False, Unknown.'),
      type: str(`Type of ${what} condition.`),
    },
    { required: ['type', 'status'] },
  );
}

/** Protobuf table of the conditions without lastUpdateTime (statefulsets, daemonsets, replicasets). */
export const conditionProtobuf = {
  type: 1,
  status: 2,
  lastTransitionTime: 3,
  reason: 4,
  message: 5,
} as const;

/** A status list merged by condition type. */
export const conditionsMerge: Omit<Schema, 'type' | 'description'> = {
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-patch-merge-key': 'type',
};
