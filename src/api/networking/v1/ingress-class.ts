// networking.k8s.io/v1 IngressClass(+List) (k8s.io/api/networking/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { networkingV1, networkingV1Def } from './ingress.js';

export const ingressClassParametersScopes = ['Cluster', 'Namespace'] as const;

export interface IngressClassParametersReference {
  apiGroup?: string;
  kind: string;
  name: string;
  scope?: string;
  namespace?: string;
}

export interface IngressClass extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'IngressClass';
  metadata?: ObjectMeta;
  spec?: { controller?: string; parameters?: IngressClassParametersReference };
}

export interface IngressClassList extends KubeObject {
  metadata?: ListMeta;
  items: IngressClass[];
}

/** The annotation that makes an IngressClass the default one. */
export const annotationIsDefaultIngressClass = 'ingressclass.kubernetes.io/is-default-class';

const INGRESS_CLASS = networkingV1Def('IngressClass');
const INGRESS_CLASS_LIST = networkingV1Def('IngressClassList');
const SPEC = networkingV1Def('IngressClassSpec');
const PARAMETERS = networkingV1Def('IngressClassParametersReference');

export const ingressClassKind = groupKind(networkingV1, 'IngressClass', INGRESS_CLASS);
export const ingressClassListKind = groupKind(networkingV1, 'IngressClassList', INGRESS_CLASS_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const ingressClassModule: APIModule = {
  definitions: {
    [PARAMETERS]: struct(
      'The object holding the configuration of the controller.',
      {
        apiGroup: str('The API group of the object; the core group when unset.'),
        kind: str('The kind of the object.', { default: '' }),
        name: str('The name of the object.', { default: '' }),
        namespace: str('The namespace of the object, when scope is Namespace.'),
        scope: str('Cluster (the default) or Namespace.'),
      },
      { required: ['kind', 'name'] },
    ),
    [SPEC]: struct('The class of an Ingress.', {
      controller: str('The controller that implements the class, as a domain-prefixed path.'),
      parameters: ref(PARAMETERS, 'Extra configuration for the controller.'),
    }),
    [INGRESS_CLASS]: struct('A class of Ingresses and the controller that implements it.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The class.', { default: {} }),
    }),
    [INGRESS_CLASS_LIST]: struct(
      'A list of IngressClasses.',
      {
        apiVersion,
        items: arrayOf(ref(INGRESS_CLASS, undefined, { default: {} }), 'The IngressClasses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [ingressClassKind, ingressClassListKind],
  // k8s.io/api/networking/v1 generated.proto.
  protobuf: {
    [INGRESS_CLASS]: { metadata: 1, spec: 2 },
    [INGRESS_CLASS_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { controller: 1, parameters: pointer(2) },
    [PARAMETERS]: {
      apiGroup: pointer(1, { goName: 'APIGroup' }),
      kind: 2,
      name: 3,
      scope: pointer(4),
      namespace: pointer(5),
    },
  },
};
