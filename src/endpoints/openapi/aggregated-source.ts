// The OpenAPI of aggregated API servers (kube-aggregator's pkg/controllers/openapi and openapiv3):
// each available APIService's backend's /openapi/v2 merged into the server's v2 document (its
// paths added, its definitions added where the name is free; kube-aggregator's merge keeps the
// local spec first), and its /openapi/v3 group-version documents listed in the v3 index and served
// as the backend wrote them.
type JsonObject = Record<string, unknown>;

export interface AggregatedSpecs {
  /** Each backend's /openapi/v2 document, parsed. */
  readonly v2: readonly JsonObject[];
  /** v3 group-version path (`apis/metrics.k8s.io/v1beta1`) → the backend's document bytes. */
  readonly v3: ReadonlyMap<string, Buffer>;
}

export interface OpenAPIAggregatedSource {
  /** The backends' specs now; a new object whenever they change. */
  specs(): AggregatedSpecs;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `local` with the backends' paths and definitions added; the local ones win on a clash. */
export function mergeV2(local: JsonObject, backends: readonly JsonObject[]): JsonObject {
  if (backends.length === 0) return local;
  const paths: JsonObject = { ...(isObject(local['paths']) ? local['paths'] : {}) };
  const definitions: JsonObject = { ...(isObject(local['definitions']) ? local['definitions'] : {}) };
  for (const spec of backends) {
    if (isObject(spec['paths'])) for (const [p, item] of Object.entries(spec['paths'])) paths[p] ??= item;
    if (isObject(spec['definitions']))
      for (const [name, schema] of Object.entries(spec['definitions'])) definitions[name] ??= schema;
  }
  const sortedPaths = Object.fromEntries(
    Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { ...local, paths: sortedPaths, definitions };
}
