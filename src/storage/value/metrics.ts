// What the transformers report (k8s.io/apiserver/pkg/storage/value/metrics.go): one observation per
// transformation; the server maps it onto apiserver_storage_transformation_* in prom-client.

export const transformationTypes = ['from_storage', 'to_storage'] as const;
export type TransformationType = (typeof transformationTypes)[number];

export interface TransformationObservation {
  readonly type: TransformationType;
  /** The provider's prefix (`k8s:enc:aescbc:v1:`); `identity` or `unknown` on reads, as kube labels them. */
  readonly prefix: string;
  readonly seconds: number;
  /** The operation failed: counted with kube's non-gRPC status, its latency not observed. */
  readonly failed: boolean;
}

export interface TransformationMetrics {
  recordTransformation(observation: TransformationObservation): void;
}
