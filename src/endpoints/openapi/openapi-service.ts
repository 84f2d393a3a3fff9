// The OpenAPI documents of one server, built lazily once from the Scheme and the served groups.
// Each document is JSON bytes with a SHA-512 ETag (upper-case hex), as kube-openapi computes it;
// the v3 index points at each group/version document by a hash-pinned URL.
import { createHash } from 'node:crypto';
import type { Scheme } from '../../api/scheme.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { discoveryPaths } from './discovery-paths.js';
import {
  kindDefinitions,
  type OpenAPIDynamicSource,
  type OpenAPIVersion,
  withDefinitions,
} from './dynamic-source.js';
import { swaggerDocument } from './document-v2.js';
import { mergeV2, type AggregatedSpecs, type OpenAPIAggregatedSource } from './aggregated-source.js';
import { openAPIV3Document } from './document-v3.js';
import { inKubeOpenAPIV3Order, inKubeSwaggerOrder } from './kube-openapi-order.js';
import { escapeGoHTML } from '../../machinery/json/go-json-text.js';
import type { PathSpec } from './operation-spec.js';
import { routePaths } from './route-paths.js';
import { resourceRoutes } from './resource-routes.js';
import type { DefinitionSource } from './schema-convert.js';

export interface OpenAPIDocument {
  readonly body: Buffer;
  /** Upper-case hex SHA-512 of body, unquoted (the `hash` of v3 URLs). */
  readonly etag: string;
  readonly lastModified: Date;
}

export interface OpenAPIV3Discovery {
  readonly paths: Readonly<Record<string, { readonly serverRelativeURL: string }>>;
}

export interface OpenAPIOptions {
  readonly scheme: Scheme;
  readonly groups: readonly APIGroupInfo[];
  /** Groups served besides `groups` that change over time (custom resources); rebuilt on change. */
  readonly dynamic?: OpenAPIDynamicSource;
  /** The specs of aggregated API servers (APIServices), merged in; rebuilt on change. */
  readonly aggregated?: OpenAPIAggregatedSource;
  /** `info` of every document; kube uses title "Kubernetes" and the server's git version. */
  readonly info?: { readonly title: string; readonly version: string };
  readonly now?: () => Date;
}

export interface OpenAPIService {
  v2(): Buffer;
  v2Document(): OpenAPIDocument;
  /** The v2 document in gnostic's protobuf model, under the JSON document's ETag (as kube-openapi). */
  /** The v2 document as gnostic protobuf; its encoder (protobufjs) loads on the first call. */
  v2ProtoDocument(): Promise<OpenAPIDocument>;
  v3Index(): OpenAPIV3Discovery;
  v3IndexDocument(): OpenAPIDocument;
  /** `groupVersionPath` as in the index: `api/v1`, `apis/apps/v1`, `api`, `apis`, `apis/apps`. */
  v3(groupVersionPath: string): Buffer | undefined;
  v3Document(groupVersionPath: string): OpenAPIDocument | undefined;
}

export const computeETag = (body: Buffer): string =>
  createHash('sha512').update(body).digest('hex').toUpperCase();

/** `/openapi/v3/apis/apps/v1?hash=…` (kube-openapi constructServerRelativeURL). */
export const serverRelativeURL = (path: string, etag: string): string => `/openapi/v3/${path}?hash=${etag}`;

const noGroups: readonly APIGroupInfo[] = [];

class OpenAPIDocuments implements OpenAPIService {
  readonly #options: OpenAPIOptions;
  #paths: PathSpec[] | undefined;
  #v2: OpenAPIDocument | undefined;
  #v2Value: unknown;
  #v2Proto: Promise<OpenAPIDocument> | undefined;
  #v3: Map<string, OpenAPIDocument> | undefined;
  #index: { value: OpenAPIV3Discovery; doc: OpenAPIDocument } | undefined;
  #dynamicGroups: readonly APIGroupInfo[] = noGroups;
  #aggregated: AggregatedSpecs | undefined;

  constructor(options: OpenAPIOptions) {
    this.#options = options;
  }

  #info(): { title: string; version: string } {
    return {
      title: this.#options.info?.title ?? 'Kubernetes',
      version: this.#options.info?.version ?? 'unversioned',
    };
  }

  /**
   * The document's bytes: kube-openapi's encoder writes v2 as it is; v3 goes through Go's
   * json.Marshal, which escapes HTML characters in what a MarshalJSON method returns.
   */
  #document(value: unknown, goEscaped = false): OpenAPIDocument {
    const text = JSON.stringify(value);
    const body = Buffer.from(goEscaped ? escapeGoHTML(text) : text);
    return { body, etag: computeETag(body), lastModified: this.#options.now?.() ?? new Date() };
  }

  /** Forgets every document once the dynamic groups have changed. */
  #refresh(): void {
    const groups = this.#options.dynamic?.groups() ?? noGroups;
    const aggregated = this.#options.aggregated?.specs();
    if (groups === this.#dynamicGroups && aggregated === this.#aggregated) return;
    this.#dynamicGroups = groups;
    this.#aggregated = aggregated;
    this.#paths = this.#v2 = this.#v2Proto = this.#v3 = this.#index = undefined;
  }

  #definitions(version: OpenAPIVersion): DefinitionSource {
    const { scheme, dynamic } = this.#options;
    return dynamic === undefined ? scheme : withDefinitions(scheme, dynamic.definitions(version));
  }

  #allPaths(): PathSpec[] {
    if (this.#paths !== undefined) return this.#paths;
    const { scheme, groups, dynamic } = this.#options;
    const dynamicKind = kindDefinitions(dynamic?.definitions('v3') ?? {});
    const definitionOf = (gvk: { group: string; version: string; kind: string }): string | undefined =>
      scheme.kindFor(gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, gvk.kind)?.definition ??
      dynamicKind(gvk);
    // Custom resources' discovery paths are not in kube's documents, only their resources'.
    const routes = [...resourceRoutes(groups), ...resourceRoutes(this.#dynamicGroups)];
    const gvs = new Map<string, { group: string; version: string }>();
    for (const g of groups)
      for (const version of g.prioritizedVersions)
        gvs.set(`${g.group}/${version}`, { group: g.group, version });
    this.#paths = [
      ...routes.flatMap((r) => routePaths(r, definitionOf)),
      ...discoveryPaths([...gvs.values()]),
    ];
    return this.#paths;
  }

  v2Document(): OpenAPIDocument {
    this.#refresh();
    if (this.#v2 === undefined) {
      const local = swaggerDocument(this.#definitions('v2'), this.#allPaths(), this.#info());
      this.#v2Value = inKubeSwaggerOrder(mergeV2(local, this.#aggregated?.v2 ?? []));
      this.#v2 = this.#document(this.#v2Value);
    }
    return this.#v2;
  }

  v2ProtoDocument(): Promise<OpenAPIDocument> {
    this.#refresh();
    this.#v2Proto ??= (async () => {
      const json = this.v2Document();
      const value = this.#v2Value;
      const { swaggerToProtoBinary } = await import('./proto-v2.js');
      return { ...json, body: swaggerToProtoBinary(value) };
    })();
    return this.#v2Proto;
  }

  v2(): Buffer {
    return this.v2Document().body;
  }

  #v3Documents(): Map<string, OpenAPIDocument> {
    this.#refresh();
    if (this.#v3 !== undefined) return this.#v3;
    const definitions = this.#definitions('v3');
    const byDocument = new Map<string, PathSpec[]>();
    for (const p of this.#allPaths()) byDocument.set(p.document, [...(byDocument.get(p.document) ?? []), p]);
    const v3 = new Map<string, OpenAPIDocument>();
    for (const name of byDocument.keys()) {
      const doc = openAPIV3Document(definitions, byDocument.get(name) ?? [], this.#info());
      v3.set(name, this.#document(inKubeOpenAPIV3Order(doc), true));
    }
    const now = this.#options.now?.() ?? new Date();
    for (const [name, body] of this.#aggregated?.v3 ?? [])
      if (!v3.has(name)) v3.set(name, { body, etag: computeETag(body), lastModified: now });
    this.#v3 = new Map([...v3].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return this.#v3;
  }

  v3Document(groupVersionPath: string): OpenAPIDocument | undefined {
    return this.#v3Documents().get(groupVersionPath);
  }

  v3(groupVersionPath: string): Buffer | undefined {
    return this.v3Document(groupVersionPath)?.body;
  }

  #v3IndexBuilt(): { value: OpenAPIV3Discovery; doc: OpenAPIDocument } {
    this.#refresh();
    if (this.#index !== undefined) return this.#index;
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [name, doc] of this.#v3Documents())
      paths[name] = { serverRelativeURL: serverRelativeURL(name, doc.etag) };
    const value: OpenAPIV3Discovery = { paths };
    this.#index = { value, doc: this.#document(value, true) };
    return this.#index;
  }

  v3Index(): OpenAPIV3Discovery {
    return this.#v3IndexBuilt().value;
  }

  v3IndexDocument(): OpenAPIDocument {
    return this.#v3IndexBuilt().doc;
  }
}

/** The OpenAPI documents of a server; nothing is built until first asked for. */
export function newOpenAPIService(options: OpenAPIOptions): OpenAPIService {
  return new OpenAPIDocuments(options);
}
