// API Priority and Fairness' configuration controller (kube's util/flowcontrol configController
// with the bootstrap configuration producer of pkg/registry/flowcontrol/ensurer): it watches
// FlowSchemas and PriorityLevelConfigurations, compiles the request classifier whenever they
// change, creates the mandatory and suggested objects and keeps them as kube does, and records in
// each FlowSchema's `Dangling` condition whether its priority level exists.
import type { FlowSchema } from '../../api/flowcontrol/v1/flow-schema.js';
import type { PriorityLevelConfiguration } from '../../api/flowcontrol/v1/priority-level-configuration.js';
import type { KubeObject } from '../../api/meta.js';
import { reasonForError } from '../../machinery/errors/index.js';
import type { Creater, Lister, Updater, Watcher } from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import { RequestClassifier } from '../../server/flowcontrol/classifier.js';
import type { ClassifierSource } from '../../server/filters/priority-and-fairness.js';
import type { Logger } from '../../server/logging/logger.js';
import { errorText } from '../../server/logging/error-text.js';
import { runListWatch } from '../controllers/list-watch.js';
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from '../../server/flowcontrol/bootstrap-configuration.js';
import { danglingStatusUpdate } from './dangling.js';
import { bootstrapObject, plannedUpdate, type BootstrapStrategy, type SpecObject } from './ensurer.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

export type ResourceStore = Lister & Watcher & Creater & Updater;

export interface FlowControlStores {
  readonly flowSchemas: ResourceStore;
  readonly flowSchemaStatus: Updater;
  readonly priorityLevels: ResourceStore;
}

const apiVersion = 'flowcontrol.apiserver.k8s.io/v1';

interface Bootstrap<T extends SpecObject> {
  readonly strategy: BootstrapStrategy;
  readonly object: T;
}

const tagged = <T extends SpecObject>(strategy: BootstrapStrategy, list: readonly T[]): Bootstrap<T>[] =>
  list.map((object) => ({ strategy, object }));

const levelsToEnsure = [
  ...tagged('mandatory', mandatoryPriorityLevels),
  ...tagged('suggested', suggestedPriorityLevels),
];
const schemasToEnsure = [
  ...tagged('mandatory', mandatoryFlowSchemas),
  ...tagged('suggested', suggestedFlowSchemas),
];

/** One kind's bootstrap objects, its store and what the watch has of it. */
interface Ensured<T extends SpecObject> {
  readonly store: ResourceStore;
  readonly cache: ReadonlyMap<string, T>;
  readonly wanted: readonly Bootstrap<T>[];
  readonly kind: string;
}

const nameOf = (o: KubeObject): string => o.metadata?.name ?? '';

export class FlowControlConfigController implements ClassifierSource {
  readonly #stores: FlowControlStores;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #abort = new AbortController();
  readonly #schemas = new Map<string, FlowSchema>();
  readonly #levels = new Map<string, PriorityLevelConfiguration>();
  readonly #listed = { schemas: false, levels: false };
  #classifier: RequestClassifier | undefined;
  #pass: Promise<void> | undefined;
  #again = false;
  #onSynced: (() => void) | undefined;
  readonly #synced: Promise<void>;

  /** `now`: the server's clock (ms), which stamps the conditions it sets. */
  constructor(stores: FlowControlStores, logger: Logger, now: () => number = Date.now) {
    this.#stores = stores;
    this.#logger = logger;
    this.#now = now;
    this.#synced = new Promise((resolve) => {
      this.#onSynced = resolve;
    });
  }

  current(): RequestClassifier | undefined {
    return this.#classifier;
  }

  /** Starts watching; resolves once every bootstrap object is in force (or on close). */
  run(): Promise<void> {
    const signal = this.#abort.signal;
    const watch = <T extends KubeObject>(
      source: ResourceStore,
      cache: Map<string, T>,
      key: 'schemas' | 'levels',
    ) =>
      runListWatch({
        source,
        signal,
        onList: (items) => {
          cache.clear();
          for (const item of items) cache.set(nameOf(item), item as T);
          this.#listed[key] = true;
          this.#changed();
        },
        onEvent: (type, obj) => {
          if (type === 'DELETED') cache.delete(nameOf(obj));
          else cache.set(nameOf(obj), obj as T);
          this.#changed();
        },
        onError: (err) => {
          this.#logger.v(2, 'flowcontrol configuration watch failed, relisting', { err: errorText(err) });
        },
      });
    void watch(this.#stores.flowSchemas, this.#schemas, 'schemas');
    void watch(this.#stores.priorityLevels, this.#levels, 'levels');
    signal.addEventListener('abort', () => this.#onSynced?.(), { once: true });
    return this.#synced;
  }

  close(): Promise<void> {
    this.#abort.abort(stopReason);
    return this.#pass ?? Promise.resolve();
  }

  /** Recompiles at once; reconciles in one pass at a time, again when changes came meanwhile. */
  #changed(): void {
    if (!this.#listed.schemas || !this.#listed.levels) return;
    this.#classifier = new RequestClassifier([...this.#schemas.values()], [...this.#levels.values()]);
    if (this.#pass !== undefined) {
      this.#again = true;
      return;
    }
    this.#pass = this.#reconcile().finally(() => {
      this.#pass = undefined;
      if (this.#again && !this.#abort.signal.aborted) {
        this.#again = false;
        this.#changed();
      }
    });
  }

  async #reconcile(): Promise<void> {
    const ctx = internalContext({ signal: this.#abort.signal });
    try {
      const levelsDone = await this.#ensure(ctx, {
        store: this.#stores.priorityLevels,
        cache: this.#levels,
        wanted: levelsToEnsure,
        kind: 'PriorityLevelConfiguration',
      });
      const schemasDone = await this.#ensure(ctx, {
        store: this.#stores.flowSchemas,
        cache: this.#schemas,
        wanted: schemasToEnsure,
        kind: 'FlowSchema',
      });
      await this.#updateDangling(ctx);
      if (levelsDone && schemasDone) this.#onSynced?.();
    } catch (err) {
      if (this.#abort.signal.aborted) return;
      this.#logger.error('unable to maintain the flowcontrol bootstrap configuration', err);
      this.#again = true;
    }
  }

  /**
   * Creates what is missing and updates what differs; true when nothing was to do. The writes go
   * together, so that a store commits them in a few batches rather than one at a time (a fresh
   * SQLite store's start waited on 34 commits in a row here).
   */
  async #ensure<T extends SpecObject>(ctx: RequestContext, what: Ensured<T>): Promise<boolean> {
    const { store, cache, wanted, kind } = what;
    const writes: Promise<void>[] = [];
    for (const { strategy, object } of wanted) {
      const name = nameOf(object);
      const current = cache.get(name);
      if (current === undefined) {
        const created = store.create(ctx, bootstrapObject(apiVersion, kind, object), { options: {} });
        writes.push(
          ignoring(['AlreadyExists'], created).then(() => {
            this.#logger.v(2, `created ${kind}`, { name, strategy });
          }),
        );
        continue;
      }
      if (plannedUpdate(strategy, object, current) === undefined) continue;
      const updated = store.update(ctx, name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) =>
            Promise.resolve(old === null ? current : (plannedUpdate(strategy, object, old as T) ?? old)),
        },
        options: {},
      });
      writes.push(
        ignoring(['NotFound', 'Conflict'], updated).then(() => {
          this.#logger.v(2, `updated ${kind}`, { name, strategy });
        }),
      );
    }
    await settledAll(writes);
    return writes.length === 0;
  }

  async #updateDangling(ctx: RequestContext): Promise<void> {
    const now = new Date(this.#now()).toISOString().replace(/\.\d+Z$/, 'Z');
    const writes: Promise<void>[] = [];
    for (const fs of this.#schemas.values()) {
      const exists = this.#levels.has(fs.spec.priorityLevelConfiguration?.name ?? '');
      if (danglingStatusUpdate(fs, exists, now) === undefined) continue;
      const write = ignoring(
        ['NotFound', 'Conflict'],
        this.#stores.flowSchemaStatus.update(ctx, nameOf(fs), {
          objInfo: {
            preconditions: () => undefined,
            updatedObject: (_c, old) =>
              Promise.resolve(
                old === null ? fs : (danglingStatusUpdate(old as FlowSchema, exists, now) ?? old),
              ),
          },
          options: {},
        }),
      );
      writes.push(write);
    }
    await settledAll(writes);
  }
}

/** Waits for every write, then throws the first failure, if any: none is left running unawaited. */
async function settledAll(writes: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(writes);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
}

async function ignoring(reasons: readonly string[], p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!reasons.includes(reasonForError(err))) throw err;
  }
}
