// core/v1 ObjectReference and LocalObjectReference: shared by Event, Endpoints, ServiceAccount and
// the pod kinds. One module, so every kind that refers to them registers the same schema object.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { str, struct } from '../../schema/builders.js';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

export const OBJECT_REFERENCE = coreV1('ObjectReference');
export const LOCAL_OBJECT_REFERENCE = coreV1('LocalObjectReference');

export const objectReferenceModule: APIModule = {
  definitions: {
    [OBJECT_REFERENCE]: struct(
      'Enough information to find one object of any kind.',
      {
        apiVersion: str('API version of the referent.'),
        fieldPath: str('A part of the referent, such as one container of a pod.'),
        kind: str('Kind of the referent.'),
        name: str('Name of the referent.'),
        namespace: str('Namespace of the referent.'),
        resourceVersion: str('The referent version this reference was made for.'),
        uid: str('UID of the referent.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [LOCAL_OBJECT_REFERENCE]: struct(
      'The name of an object in the same namespace.',
      { name: str('Name of the referent.', { default: '' }) },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
  },
  protobuf: {
    [OBJECT_REFERENCE]: {
      kind: 1,
      namespace: 2,
      name: 3,
      uid: 4,
      apiVersion: 5,
      resourceVersion: 6,
      fieldPath: 7,
    },
    [LOCAL_OBJECT_REFERENCE]: { name: 1 },
  },
};
