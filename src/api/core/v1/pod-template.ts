// core/v1 PodTemplateSpec and PodTemplate(+List). PodTemplateSpec is the pod part of every
// workload kind (replicationcontrollers here; deployments, replicasets, jobs… reuse it).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import type { PodSpec } from './pod.js';

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface PodTemplate extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'PodTemplate';
  metadata?: ObjectMeta;
  template?: PodTemplateSpec;
}

export interface PodTemplateList extends KubeObject {
  metadata?: ListMeta;
  items: PodTemplate[];
}

export const POD_TEMPLATE_SPEC = coreV1('PodTemplateSpec');
export const podTemplateKind = coreV1Kind('PodTemplate');
export const podTemplateListKind = coreV1Kind('PodTemplateList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const podTemplateModule: APIModule = {
  definitions: {
    [POD_TEMPLATE_SPEC]: struct('The data a pod is created from.', {
      metadata: ref(OBJECT_META, 'Metadata of the pods created from this template.', { default: {} }),
      spec: ref(coreV1('PodSpec'), 'Desired behaviour of the pods.', { default: {} }),
    }),
    [coreV1('PodTemplate')]: struct('A template for creating copies of a predefined pod.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      template: ref(POD_TEMPLATE_SPEC, 'The pods this template describes.', { default: {} }),
    }),
    [coreV1('PodTemplateList')]: struct(
      'A list of PodTemplates.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('PodTemplate'), undefined, { default: {} }), 'The PodTemplates.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [podTemplateKind, podTemplateListKind],
  protobuf: {
    [POD_TEMPLATE_SPEC]: { metadata: 1, spec: 2 },
    [coreV1('PodTemplate')]: { metadata: 1, template: 2 },
    [coreV1('PodTemplateList')]: { metadata: 1, items: 2 },
  },
};
