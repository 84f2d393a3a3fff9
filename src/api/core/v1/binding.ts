// core/v1 Binding: ties a pod to a node (POST pods/<name>/binding, or bindings).
import type { KubeObject, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { ref, str, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { OBJECT_REFERENCE, type ObjectReference } from './object-reference.js';

export interface Binding extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Binding';
  metadata?: ObjectMeta;
  target: ObjectReference;
}

export const bindingKind = coreV1Kind('Binding');

export const bindingModule: APIModule = {
  definitions: {
    [coreV1('Binding')]: struct(
      'Binds one object to another; a scheduler binds a pod to a node with it.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        target: ref(OBJECT_REFERENCE, 'The object to bind to.', { default: {} }),
      },
      { required: ['target'] },
    ),
  },
  kinds: [bindingKind],
  protobuf: { [coreV1('Binding')]: { metadata: 1, target: 2 } },
};
