// Request options the REST capabilities take: the parsed query parameters of each verb
// (metav1.GetOptions, ListOptions, CreateOptions, UpdateOptions, PatchOptions, DeleteOptions).
import type { Preconditions } from '../../api/meta.js';
import type { ResourceVersionMatch } from '../../storage/interfaces.js';

export const fieldValidationModes = ['Ignore', 'Warn', 'Strict'] as const;
export type FieldValidation = (typeof fieldValidationModes)[number];

export const propagationPolicies = ['Orphan', 'Background', 'Foreground'] as const;
export type PropagationPolicy = (typeof propagationPolicies)[number];

export interface GetOptions {
  resourceVersion?: string;
  /**
   * In-process readers only (never from a request): the caller will not change the object, so the
   * watch cache may answer with a shared, frozen decode instead of a fresh one.
   */
  readOnly?: boolean;
  /** In-process readers only: the watch cache's answer or none (NotFound), never a storage read. */
  cachedOnly?: boolean;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  /** In-process readers only: the items are not changed, so a cache may share frozen decodes. */
  readOnly?: boolean;
}

export interface CreateOptions {
  /** ['All'] for a dry run. */
  dryRun?: readonly string[];
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export type UpdateOptions = CreateOptions;

export interface DeleteOptions {
  dryRun?: readonly string[];
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  propagationPolicy?: PropagationPolicy;
  /** Deprecated form of propagationPolicy. */
  orphanDependents?: boolean;
}

export function isDryRun(dryRun: readonly string[] | undefined): boolean {
  return dryRun !== undefined && dryRun.length > 0;
}
