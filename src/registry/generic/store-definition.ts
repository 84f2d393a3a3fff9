// The one options object a generic Store is built from (the fields of kube's registry.Store that a
// resource sets), and the options completion takes (generic.StoreOptions).
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { TransformFunc } from '../../machinery/fields/index.js';
import type { Selector as FieldSelector } from '../../machinery/fields/index.js';
import type { Selector as LabelSelector } from '../../machinery/labels/index.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { TableConvertor } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type {
  AttrFunc,
  CreateStrategy,
  DeleteStrategy,
  NameGenerator,
  UpdateStrategy,
} from '../rest/strategy.js';
import type { KeyFunc, KeyRootFunc } from './keys.js';
import type { StorePredicate } from './predicate.js';
import type { RESTOptionsGetter, TriggerFuncs } from './rest-options.js';

/** rest.GarbageCollectionPolicy: what a resource's deletes do to dependents when the request says nothing. */
export const garbageCollectionPolicies = ['DeleteDependents', 'OrphanDependents', 'Unsupported'] as const;
export type GarbageCollectionPolicy = (typeof garbageCollectionPolicies)[number];

/** Builds the predicate for parsed selectors (kube's PredicateFunc). */
export type PredicateFunc<T extends KubeObject> = (sel: {
  readonly label: LabelSelector;
  readonly field: FieldSelector;
  readonly continueToken?: string;
}) => StorePredicate<T>;

/** Seconds an object lives in storage; `existing` is the current TTL (0 on create). */
export type TTLFunc<T extends KubeObject> = (
  obj: T,
  at: { readonly existing: number; readonly update: boolean },
) => number;

/** Whether an update that leaves `obj` should delete it instead (kube's ShouldDeleteDuringUpdate). */
export type ShouldDeleteDuringUpdate<T extends KubeObject> = (
  ctx: RequestContext,
  obj: T,
  existing: T,
) => boolean;

/**
 * Receives object counts for `apiserver_storage_objects{resource=...}`; the server wires it to its
 * metrics registry. `set` gets -1 when a count failed, as kube reports it.
 */
export interface ObjectCountMetric {
  set(resource: string, count: number): void;
  delete(resource: string): void;
}

export interface StoreDefinition<T extends KubeObject = KubeObject> {
  /** Plural resource with its group; names the resource in errors (kube's DefaultQualifiedResource). */
  readonly qualifiedResource: GroupResource;
  /** Singular resource name for discovery (kube's SingularQualifiedResource.Resource). */
  readonly singularName: string;
  /** A new empty object with apiVersion and kind set. */
  readonly newFunc?: () => T;
  /** A new empty list with apiVersion and kind set. */
  readonly newListFunc?: () => KubeList<T>;
  /** Set both or neither; the defaults are `<prefix>/<namespace>/<name>` or `<prefix>/<name>`. */
  readonly keyRootFunc?: KeyRootFunc;
  readonly keyFunc?: KeyFunc;
  readonly predicateFunc?: PredicateFunc<T>;
  /** Field selector labels the kind supports; `metadata.name` and `metadata.namespace` by default. */
  readonly fieldLabelConversion?: TransformFunc;
  readonly createStrategy?: CreateStrategy<T>;
  readonly updateStrategy?: UpdateStrategy<T>;
  readonly deleteStrategy?: DeleteStrategy<T>;
  /** Names objects created with generateName; kube's SimpleNameGenerator by default. */
  readonly nameGenerator?: NameGenerator;
  /** Default when deletes name no propagation policy (kube's GarbageCollectionDeleteStrategy). */
  readonly defaultGarbageCollectionPolicy?: GarbageCollectionPolicy;
  /** Delete answers with the deleted object rather than a Success Status. */
  readonly returnDeletedObject?: boolean;
  /** Checked besides the default conditions (finalizers gone, deletion requested). */
  readonly shouldDeleteDuringUpdate?: ShouldDeleteDuringUpdate<T>;
  readonly tableConvertor?: TableConvertor;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly ttlFunc?: TTLFunc<T>;
  /** Parallel deletes in deleteCollection; the server's `--delete-collection-workers` when 0 or unset. */
  readonly deleteCollectionWorkers?: number;
  /**
   * Keep metadata.generation: 1 on create, bumped when anything outside metadata and status changes
   * (default true). Kinds kube gives no generation (configmaps, secrets, namespaces) turn it off.
   */
  readonly trackGeneration?: boolean;
}

/** generic.StoreOptions. */
export interface StoreOptions<T extends KubeObject = KubeObject> {
  readonly restOptions?: RESTOptionsGetter;
  /** Labels and fields selectors see; `metadata.name` (and `metadata.namespace`) by default. */
  readonly attrFunc?: AttrFunc<T>;
  readonly triggerFuncs?: TriggerFuncs;
  /** Where the object count goes when the count poller runs. */
  readonly objectCountMetric?: ObjectCountMetric;
}
