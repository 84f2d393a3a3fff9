// What the Store's verb files share: the completed, frozen state of one Store.
import type { Clock } from '../../machinery/time/clock.js';
import type { KubeList, KubeObject } from '../../api/meta.js';
import { newInvalid, type StatusError } from '../../machinery/errors/index.js';
import type { TransformFunc } from '../../machinery/fields/index.js';
import type { GroupKind, GroupResource } from '../../machinery/schema/group-resource.js';
import type { FieldError } from '../../machinery/validation/index.js';
import type { TableConvertor } from '../rest/capabilities.js';
import type {
  AttrFunc,
  CreateStrategy,
  DeleteStrategy,
  NameGenerator,
  UpdateStrategy,
} from '../rest/strategy.js';
import type { DryRunnableStorage } from './dry-run.js';
import type { KeyFunc, KeyRootFunc } from './keys.js';
import type {
  GarbageCollectionPolicy,
  PredicateFunc,
  ShouldDeleteDuringUpdate,
  TTLFunc,
} from './store-definition.js';

declare const completed: unique symbol;

/** A Store's state after completeWithOptions: every default filled in, frozen. */
export interface StoreCore<T extends KubeObject = KubeObject> {
  readonly [completed]: true;
  readonly qualifiedResource: GroupResource;
  /** The kind's group and name, for Invalid errors (`ConfigMap "x" is invalid`). */
  readonly qualifiedKind: GroupKind;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly newFunc: () => T;
  readonly newListFunc: () => KubeList<T>;
  readonly keyFunc: KeyFunc;
  readonly keyRootFunc: KeyRootFunc;
  readonly predicateFunc: PredicateFunc<T>;
  readonly attrFunc: AttrFunc<T>;
  readonly fieldLabelConversion: TransformFunc;
  readonly createStrategy: CreateStrategy<T> | undefined;
  readonly updateStrategy: UpdateStrategy<T> | undefined;
  readonly deleteStrategy: DeleteStrategy<T>;
  readonly nameGenerator: NameGenerator;
  readonly defaultGarbageCollectionPolicy: GarbageCollectionPolicy | undefined;
  readonly enableGarbageCollection: boolean;
  readonly deleteCollectionWorkers: number;
  readonly returnDeletedObject: boolean;
  readonly shouldDeleteDuringUpdate: ShouldDeleteDuringUpdate<T> | undefined;
  readonly tableConvertor: TableConvertor;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly ttlFunc: TTLFunc<T> | undefined;
  readonly trackGeneration: boolean;
  readonly storage: DryRunnableStorage<T>;
  /** The server's clock: creation and deletion timestamps. */
  readonly clock: Clock;
  /** Stops the count poller and releases the storage; safe to call more than once. */
  readonly destroy: () => Promise<void>;
}

/** The state of a completed store, branded so only completion makes one. */
export function brandCore<T extends KubeObject>(core: Omit<StoreCore<T>, typeof completed>): StoreCore<T> {
  return Object.freeze(core) as StoreCore<T>;
}

/**
 * An Invalid (422) for an object of the store, as rest.BeforeCreate and BeforeUpdate make it: named
 * by the kind the typer gives the object, which for a custom resource (unstructured) is the kind it
 * claims, for any other object the store's.
 */
export function invalidFor<T extends KubeObject>(
  core: StoreCore<T>,
  obj: T,
  errs: readonly FieldError[],
): StatusError {
  const claimed = obj.kind ?? '';
  const kind = claimed === '' ? core.qualifiedKind : { group: core.qualifiedKind.group, kind: claimed };
  return newInvalid(kind, obj.metadata?.name ?? '', errs);
}
