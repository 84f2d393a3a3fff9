// The operation model both the v2 and the v3 writers render: paths, operations, parameters,
// responses and media types, as kube-apiserver's route installer describes them.
import type { ParamSpec } from './parameters.js';

export const kubeActions = [
  'get',
  'list',
  'watch',
  'watchlist',
  'post',
  'put',
  'patch',
  'delete',
  'deletecollection',
] as const;
export type KubeAction = (typeof kubeActions)[number];
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface GVK {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface ResponseSpec {
  readonly code: string;
  readonly description: string;
  /** Definition name of the body; none for 401. */
  readonly schemaRef?: string;
}

export interface OperationSpec {
  readonly method: HttpMethod;
  readonly operationId: string;
  readonly description: string;
  readonly action?: KubeAction;
  readonly gvk?: GVK;
  readonly tag: string;
  readonly params: readonly ParamSpec[];
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly responses: readonly ResponseSpec[];
}

export interface PathSpec {
  readonly path: string;
  /** `api/v1`, `apis/apps/v1`, `api`, `apis`, `apis/apps`: the v3 document the path belongs to. */
  readonly document: string;
  readonly params: readonly ParamSpec[];
  readonly operations: readonly OperationSpec[];
}

export const JSON_YAML = ['application/json', 'application/yaml'];
export const objectMediaTypes = JSON_YAML;
export const LIST_PRODUCES = [...JSON_YAML, 'application/json;stream=watch'];
export const WATCH_PRODUCES = [...JSON_YAML, 'application/json;stream=watch'];
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
export const ANY = ['*/*'];
export const unauthorized: ResponseSpec = { code: '401', description: 'Unauthorized' };

/** Resolves a kind to its definition name; routes whose kinds are unknown are left out. */
export type DefinitionOf = (gvk: GVK) => string | undefined;
