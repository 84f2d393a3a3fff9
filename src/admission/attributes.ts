// What an admission plugin is asked about (k8s.io/apiserver/pkg/admission/interfaces.go Attributes
// and attributes.go): one request's operation, resource, object and user.
import type { KubeObject } from '../api/meta.js';
import type { GroupVersionKind, GroupVersionResource } from '../machinery/schema/group-resource.js';
import type { UserInfo } from '../registry/rest/context.js';
import type { EquivalentResourceMapper } from '../registry/rest/equivalent-resources.js';
import type { ReinvocationContext } from './reinvocation.js';

export const operations = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export type Operation = (typeof operations)[number];

export interface Attributes {
  readonly operation: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** '' for the main resource; `status`, `finalize`… otherwise. */
  readonly subresource: string;
  /** '' for cluster-scoped requests; a namespace's own name when it is created. */
  readonly namespace: string;
  /** As the request names it: '' on a create that leaves the name to generateName. */
  readonly name: string;
  /**
   * The incoming object, which mutating plugins may change; null for DELETE; for CONNECT, the
   * request's options (a PodExecOptions…).
   */
  readonly object: KubeObject | null;
  /** The stored object for UPDATE and (during validation) DELETE; null otherwise. */
  readonly oldObject: KubeObject | null;
  readonly userInfo: UserInfo;
  /** Nothing will be persisted: plugins with side effects skip them. */
  readonly dryRun: boolean;
  /** The verb's options as sent, when the caller has them (webhooks send them). */
  readonly options?: VerbOptions;
  /**
   * The resources equivalent to this one and the conversion between them (kube's ObjectInterfaces),
   * for matchPolicy Equivalent; absent where the caller does not know them (matching is then Exact).
   */
  readonly equivalents?: EquivalentResourceMapper;
  /** Set by a mutating chain that may run twice (reinvocation.ts); absent otherwise. */
  readonly reinvocation?: ReinvocationContext;
}

/**
 * A write verb's options as the request sent them: CreateOptions, UpdateOptions (a patch's, as kube
 * converts them) or DeleteOptions.
 */
export interface VerbOptions {
  readonly dryRun?: readonly string[] | undefined;
}
