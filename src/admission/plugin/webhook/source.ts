// The webhook configurations as an informer has them (kube's configuration/{mutating,validating}_
// webhook_manager.go): listed from the watch cache, then kept by a watch, relisted when it ends. The
// webhooks are kept flattened in kube's order (configurations by name, webhooks as listed) and
// replaced whole on each change, so a request reads one array and never waits.
import type {
  MutatingWebhookConfiguration,
  ValidatingWebhookConfiguration,
} from '../../../api/admissionregistration/v1/webhook.js';
import type { KubeObject } from '../../../api/meta.js';
import type { Lister, Watcher } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { webhookAccessor, type WebhookAccessor } from './accessor.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';

/** What the plugins read: the webhooks now, and whether the first list has arrived. */
export interface WebhookSource {
  readonly webhooks: readonly WebhookAccessor[];
  /** Resolves once the first list is in (kube's WaitForReady). */
  ready(): Promise<void>;
  readonly synced: boolean;
  close?(): void;
}

/** A fixed set of webhooks, for tests and callers that build their own. */
export function staticWebhookSource(webhooks: readonly WebhookAccessor[]): WebhookSource {
  return { webhooks, synced: true, ready: () => Promise.resolve() };
}

type Configuration = ValidatingWebhookConfiguration | MutatingWebhookConfiguration;

function accessorsOf(configs: ReadonlyMap<string, Configuration>): WebhookAccessor[] {
  const names = [...configs.keys()].sort();
  const out: WebhookAccessor[] = [];
  for (const name of names)
    (configs.get(name)?.webhooks ?? []).forEach((hook, i) => out.push(webhookAccessor(name, i, hook)));
  return out;
}

const backoff = { initialMs: 100, maxMs: 30_000 };

export interface WatchedWebhookSourceOptions {
  readonly storage: Lister & Watcher;
  readonly onError?: (err: unknown) => void;
}

export class WatchedWebhookSource implements WebhookSource {
  #webhooks: readonly WebhookAccessor[] = [];
  #synced = false;
  readonly #configs = new Map<string, Configuration>();
  readonly #abort = new AbortController();
  readonly #ready: Promise<void>;
  #markReady: () => void = () => undefined;
  readonly #o: WatchedWebhookSourceOptions;

  constructor(o: WatchedWebhookSourceOptions) {
    this.#o = o;
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    void this.#run();
  }

  get webhooks(): readonly WebhookAccessor[] {
    return this.#webhooks;
  }

  get synced(): boolean {
    return this.#synced;
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  #rebuild(): void {
    this.#webhooks = this.#configs.size === 0 ? [] : accessorsOf(this.#configs);
  }

  async #listAndWatch(): Promise<void> {
    const signal = this.#abort.signal;
    const ctx = internalContext({ signal });
    const list = await this.#o.storage.list(ctx, { resourceVersion: '0', readOnly: true });
    this.#configs.clear();
    for (const item of list.items) this.#configs.set(item.metadata?.name ?? '', item);
    this.#rebuild();
    this.#synced = true;
    this.#markReady();
    const rv = list.metadata.resourceVersion ?? '';
    const watch = await this.#o.storage.watch(ctx, rv === '' ? {} : { resourceVersion: rv });
    const stop = (): void => {
      watch.stop();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of watch) {
        if (event.type === 'ERROR') throw new Error(event.object.message ?? 'watch error');
        if (event.type === 'BOOKMARK') continue;
        this.#apply(event.type, event.object);
      }
    } finally {
      signal.removeEventListener('abort', stop);
      watch.stop();
    }
  }

  #apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    const name = obj.metadata?.name ?? '';
    if (type === 'DELETED') this.#configs.delete(name);
    else this.#configs.set(name, obj);
    this.#rebuild();
  }

  #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  async #run(): Promise<void> {
    let wait = backoff.initialMs;
    while (!this.#stopped()) {
      try {
        await this.#listAndWatch();
        wait = backoff.initialMs;
      } catch (err) {
        if (this.#stopped()) return;
        this.#o.onError?.(err);
        wait = Math.min(wait * 2, backoff.maxMs);
      }
      if (this.#stopped()) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.#abort.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }

  close(): void {
    this.#abort.abort(stopReason);
  }
}
