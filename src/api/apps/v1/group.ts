// apps/v1: the group version, its definition names, and the pieces its kinds share.
import { apiDefinitions, type GoTypeOverrides } from '../../schema/api-module.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import type { ProtobufTables } from '../../schema/protobuf.js';
import type { Definitions, Schema } from '../../schema/types.js';

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

/** Protobuf table of the conditions with lastUpdateTime (deployments). */
const conditionWithUpdateTimeProtobuf = {
  type: 1,
  status: 2,
  lastUpdateTime: 6,
  lastTransitionTime: 7,
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

/** A status's conditions list of the given condition definition, merged by type. */
export function conditionsList(conditionDef: string, description: string): Schema {
  return arrayOf(ref(conditionDef, undefined, { default: {} }), description, conditionsMerge);
}

/** The struct of `<kindName>List`: list metadata and the items. */
export function listSchema(kindName: string): Schema {
  return struct(
    `A list of ${kindName}s.`,
    {
      apiVersion,
      items: arrayOf(ref(appsV1Def(kindName), undefined, { default: {} }), `The ${kindName}s.`),
      kind,
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
    },
    { required: ['items'] },
  );
}

/** Protobuf table of every list kind. */
export const listProtobuf = { metadata: 1, items: 2 } as const;

/** How a workload kind (spec, status and conditions) describes itself. */
export interface WorkloadTexts {
  /** The kind, e.g. `ReplicaSet`; its parts are `<kindName>Spec`, `…Status`, `…Condition` and `…List`. */
  readonly kindName: string;
  readonly description: string;
  readonly specDoc: string;
  readonly statusDoc: string;
  /** How the condition texts name the kind (`replica set`, `DaemonSet`). */
  readonly conditionOf: string;
  /** Deployment conditions also carry lastUpdateTime. */
  readonly conditionUpdateTime?: boolean;
}

/** The parts of a workload kind that differ only in names: the object, its condition and its list. */
export function workloadParts(texts: WorkloadTexts): {
  definitions: Definitions;
  goTypes: GoTypeOverrides;
  protobuf: ProtobufTables;
} {
  const name = texts.kindName;
  const def = appsV1Def(name);
  const condition = appsV1Def(`${name}Condition`);
  const list = appsV1Def(`${name}List`);
  const updateTime = texts.conditionUpdateTime === true;
  return {
    definitions: {
      [def]: struct(texts.description, {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(appsV1Def(`${name}Spec`), texts.specDoc, { default: {} }),
        status: ref(appsV1Def(`${name}Status`), texts.statusDoc, { default: {} }),
      }),
      [condition]: conditionSchema(texts.conditionOf, updateTime),
      [list]: listSchema(name),
    },
    goTypes: { [condition]: { type: `v1.${name}ConditionType`, status: 'v1.ConditionStatus' } },
    protobuf: {
      [def]: { metadata: 1, spec: 2, status: 3 },
      [condition]: updateTime ? conditionWithUpdateTimeProtobuf : conditionProtobuf,
      [list]: listProtobuf,
    },
  };
}
