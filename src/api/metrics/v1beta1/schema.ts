// The OpenAPI definitions of metrics.k8s.io/v1beta1 as metrics-server publishes them (its generated
// openapi for k8s.io/metrics/pkg/apis/metrics/v1beta1), so that `kubectl explain podmetrics` reads
// them, and the Go field order of those structs (k8s.io/metrics types.go): no member is omitempty
// but metadata, a struct Go never leaves out.
import type { APIModule } from '../../schema/api-module.js';
import { groupKind, metaV1 } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapOf, ref, str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY } from '../../util/int-or-string.js';
import { metricsV1beta1 } from './types.js';

const def = (name: string): string => `io.k8s.metrics.pkg.apis.metrics.v1beta1.${name}`;
const NODE_METRICS = def('NodeMetrics');
const NODE_METRICS_LIST = def('NodeMetricsList');
const POD_METRICS = def('PodMetrics');
const POD_METRICS_LIST = def('PodMetricsList');
const CONTAINER_METRICS = def('ContainerMetrics');
/** metav1.Duration, which no built-in kind of kube's own uses: a Go duration as text. */
const DURATION = metaV1('Duration');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const usage = mapOf(ref(QUANTITY), 'Resources used: CPU in cores, memory as the working set in bytes.');
const timestamp = ref(TIME, 'The end of the window the usage was averaged over.');
const window = ref(DURATION, 'How long before the timestamp the usage was averaged over.');
const metadata = ref(OBJECT_META, 'Standard object metadata.', { default: {} });

const list = (of: string, what: string): Schema =>
  struct(
    `A list of ${what}.`,
    {
      apiVersion,
      items: arrayOf(ref(of, undefined, { default: {} }), `The ${what}.`),
      kind,
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
    },
    { required: ['items'] },
  );

const omitEmpty: GoOmitEmptyTables = Object.fromEntries(
  [NODE_METRICS, NODE_METRICS_LIST, POD_METRICS, POD_METRICS_LIST, CONTAINER_METRICS].map((d) => [d, {}]),
);

export const metricsV1beta1Module: APIModule = {
  definitions: {
    [DURATION]: { description: 'A span of time written as Go writes a duration (`15s`).', type: 'string' },
    [CONTAINER_METRICS]: struct(
      'The resources one container used.',
      { name: str('The container.', { default: '' }), usage },
      { required: ['name', 'usage'] },
    ),
    [NODE_METRICS]: struct(
      'The resources a node used over a window.',
      { apiVersion, kind, metadata, timestamp, usage, window },
      { required: ['timestamp', 'window', 'usage'] },
    ),
    [NODE_METRICS_LIST]: list(NODE_METRICS, 'NodeMetrics'),
    [POD_METRICS]: struct(
      "The resources a pod's containers used over one window.",
      {
        apiVersion,
        containers: atomicList(ref(CONTAINER_METRICS, undefined, { default: {} }), 'Each container.'),
        kind,
        metadata,
        timestamp,
        window,
      },
      { required: ['timestamp', 'window', 'containers'] },
    ),
    [POD_METRICS_LIST]: list(POD_METRICS, 'PodMetrics'),
  },
  kinds: [
    groupKind(metricsV1beta1, 'NodeMetrics', NODE_METRICS),
    groupKind(metricsV1beta1, 'NodeMetricsList', NODE_METRICS_LIST),
    groupKind(metricsV1beta1, 'PodMetrics', POD_METRICS),
    groupKind(metricsV1beta1, 'PodMetricsList', POD_METRICS_LIST),
  ],
  goJSON: {
    [NODE_METRICS]: { fields: ['metadata', 'timestamp', 'window', 'usage'] },
    [NODE_METRICS_LIST]: { fields: ['metadata', 'items'] },
    [POD_METRICS]: { fields: ['metadata', 'timestamp', 'window', 'containers'] },
    [POD_METRICS_LIST]: { fields: ['metadata', 'items'] },
    [CONTAINER_METRICS]: { fields: ['name', 'usage'] },
  },
  goOmitEmpty: omitEmpty,
  // metrics-server's protobuf is not served here; Duration's codec says how Go writes it (a string).
  protobuf: { [DURATION]: 'duration' },
};
