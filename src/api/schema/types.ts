// A structural schema (the OpenAPI v3 subset kube calls structural): one per kind drives
// validation of unknown fields, defaults, patch merge keys and the OpenAPI documents.

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface Schema {
  type?: SchemaType;
  format?: string;
  description?: string;
  /** A named definition (e.g. `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`) this schema stands for. */
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

/** A kind served by the API: where it lives and the definition that describes it. */
export interface KindInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Key into the definitions, e.g. `io.k8s.api.core.v1.ConfigMap`. */
  readonly definition: string;
}

/** Named schemas, as OpenAPI `definitions` / `components.schemas`. */
export type Definitions = Readonly<Record<string, Schema>>;
