// Per-resource policy objects (k8s.io/apiserver/pkg/registry/rest create.go, update.go, delete.go).
// The generic Store owns the order of steps; strategies only decide.
import type { KubeObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/validation/field-error.js';
import type { RequestContext } from './context.js';
import type { DeleteOptions } from './options.js';
import type { ObjectAttrs } from '../../storage/interfaces.js';

export interface NameGenerator {
  /** `base` + 5 random characters of kube's alphabet, base truncated to fit 63 characters. */
  generateName(base: string): string;
}

/**
 * The version's defaulting functions that the schema cannot state (SetDefaults_* depending on other
 * fields): kube's decoder runs them on every body it decodes, so a request's defaults are in place
 * before admission and the field manager (which records them as the request's fields). Strategies
 * also run them in prepareForCreate and prepareForUpdate, for objects no decoder saw (a controller's)
 * and for what mutating admission added after the decode; they are idempotent (~4 µs for a Pod).
 */
export interface DecodeDefaulting<T extends KubeObject = KubeObject> {
  defaultDecoded?(obj: T): void;
}

export interface CreateStrategy<T extends KubeObject = KubeObject> extends DecodeDefaulting<T> {
  readonly namespaceScoped: boolean;
  /** Clears fields the user may not set on create (status) and sets derived ones. */
  prepareForCreate(ctx: RequestContext, obj: T): void;
  validate(ctx: RequestContext, obj: T): FieldError[];
  warningsOnCreate?(ctx: RequestContext, obj: T): string[];
  /** Normalizes the object after validation (kube's Canonicalize). */
  canonicalize?(obj: T): void;
}

export interface UpdateStrategy<T extends KubeObject = KubeObject> extends DecodeDefaulting<T> {
  readonly namespaceScoped: boolean;
  /** PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is allowed (last write wins). */
  readonly allowUnconditionalUpdate: boolean;
  /** Carries over what this endpoint may not change (status on the main resource, spec on /status). */
  prepareForUpdate(ctx: RequestContext, obj: T, old: T): void;
  /**
   * The write leaves metadata.generation as it was whatever it changes: kube makes it past the
   * strategies that bump it (a pod's binding sets spec.nodeName through the storage directly).
   */
  readonly keepsGeneration?: boolean;
  validateUpdate(ctx: RequestContext, obj: T, old: T): FieldError[];
  warningsOnUpdate?(ctx: RequestContext, obj: T, old: T): string[];
  canonicalize?(obj: T): void;
}

export interface DeleteStrategy<T extends KubeObject = KubeObject> {
  /**
   * Decides whether deletion is graceful and sets options.gracePeriodSeconds; returning false
   * deletes at once (kube's RESTGracefulDeleteStrategy.CheckGracefulDelete).
   */
  checkGracefulDelete?(ctx: RequestContext, obj: T, options: DeleteOptions): boolean;
}

export type { ObjectAttrs };

export type AttrFunc<T extends KubeObject = KubeObject> = (obj: T) => ObjectAttrs;
