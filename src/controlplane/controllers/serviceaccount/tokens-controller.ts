// The tokens controller (pkg/controller/serviceaccount/tokens_controller.go): a Secret of type
// kubernetes.io/service-account-token that names a ServiceAccount gets a legacy token signed for it,
// the cluster's CA and its namespace, and the account's uid in its annotations; a token Secret whose
// account does not exist (or has another uid) is deleted, and so are an account's token Secrets when
// the account goes. Runs inside the API server against the served storages.
import type { KubeObject } from '../../../api/meta.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { StatusError } from '../../../machinery/errors/index.js';
import { signJwt, type TokenSigner } from '../../../registry/core/serviceaccount/jwt.js';
import { legacyClaims } from '../../../registry/core/serviceaccount/legacy-claims.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  isWatcher,
  type Getter,
  type GracefulDeleter,
  type Lister,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export const tokenSecretType = 'kubernetes.io/service-account-token';
const nameKey = 'kubernetes.io/service-account.name';
const uidKey = 'kubernetes.io/service-account.uid';

interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

export interface TokensControllerOptions {
  readonly secrets: Getter & Lister & Watcher & Updater & GracefulDeleter;
  readonly serviceAccounts: Getter & Lister & Watcher;
  readonly signer: TokenSigner;
  /** PEM written as ca.crt; none on plain HTTP. */
  readonly rootCA: string | undefined;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** Queue keys: a secret's `namespace/name`, or an account's `sa:namespace/name`. */
const accountKey = (obj: KubeObject): string =>
  `sa:${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

export class TokensController {
  readonly #opts: TokensControllerOptions;
  readonly #loop: QueueController;

  constructor(opts: TokensControllerOptions) {
    this.#opts = opts;
    this.#loop = new QueueController({
      queueName: 'serviceaccount_tokens_service',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'serviceaccount-token',
      logger: opts.logger,
      logPrefix: 'tokens controller',
      sources: [
        {
          what: 'secrets',
          source: opts.secrets,
          mentions: tokenSecretType,
          onEvent: (type, obj, queue) => {
            if (type !== 'DELETED' && (obj as Secret).type === tokenSecretType)
              queue.add(`${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`);
          },
        },
        {
          what: 'serviceaccounts',
          source: opts.serviceAccounts,
          onEvent: (type, obj, queue) => {
            if (type === 'DELETED') queue.add(accountKey(obj));
          },
        },
      ],
      sync: (key) => (key.startsWith('sa:') ? this.#syncAccount(key.slice(3)) : this.#syncSecret(key)),
      onSyncError: (key, err) => {
        opts.logger.error(`syncing service account token ${key} failed`, err);
        this.#loop.queue.addRateLimited(key);
      },
    });
  }

  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  /** An account went: its token Secrets are checked (and so deleted). */
  async #syncAccount(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const ctx = internalContext({ namespace, signal: this.#loop.signal });
    const list = await this.#opts.secrets.list(ctx, {});
    for (const s of list.items as Secret[])
      if (s.type === tokenSecretType && s.metadata?.annotations?.[nameKey] === name)
        await this.#syncSecret(`${namespace}/${s.metadata.name ?? ''}`);
  }

  async #syncSecret(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const ctx = internalContext({ namespace, signal: this.#loop.signal });
    const secret = (await this.#get(this.#opts.secrets, namespace, name)) as Secret | undefined;
    if (secret?.type !== tokenSecretType || (secret.metadata?.deletionTimestamp ?? '') !== '') return;
    const annotations = secret.metadata?.annotations ?? {};
    const account = await this.#get(this.#opts.serviceAccounts, namespace, annotations[nameKey] ?? '');
    const uid = account?.metadata?.uid ?? '';
    const wantedUID = annotations[uidKey] ?? '';
    if (account === undefined || (wantedUID !== '' && wantedUID !== uid)) {
      await this.#delete(ctx, secret);
      return;
    }
    const data = secret.data ?? {};
    const ca = this.#opts.rootCA;
    const complete =
      (data['token'] ?? '') !== '' &&
      data['namespace'] === b64(namespace) &&
      (ca === undefined || data['ca.crt'] === b64(ca)) &&
      wantedUID === uid;
    if (complete) return;
    const updated = deepCopyJSON(secret);
    const token =
      (data['token'] ?? '') === ''
        ? signJwt(
            this.#opts.signer,
            legacyClaims({
              namespace,
              secretName: name,
              serviceAccountName: annotations[nameKey] ?? '',
              serviceAccountUID: uid,
            }),
          )
        : undefined;
    updated.data = {
      ...data,
      ...(token === undefined ? {} : { token: b64(token) }),
      namespace: b64(namespace),
      ...(ca === undefined ? {} : { 'ca.crt': b64(ca) }),
    };
    updated.metadata = { ...updated.metadata, annotations: { ...annotations, [uidKey]: uid } };
    try {
      await this.#opts.secrets.update(ctx, name, {
        objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(updated) },
        options: {},
      });
    } catch (err) {
      // Changed meanwhile: its event comes and syncs it again; gone: nothing to do.
      if (codeOf(err) !== 409 && codeOf(err) !== 404) throw err;
    }
  }

  async #delete(ctx: ReturnType<typeof internalContext>, secret: Secret): Promise<void> {
    try {
      await this.#opts.secrets.delete(ctx, secret.metadata?.name ?? '', {
        options: { preconditions: { uid: secret.metadata?.uid ?? '' } },
      });
    } catch (err) {
      if (codeOf(err) !== 404 && codeOf(err) !== 409) throw err;
    }
  }

  async #get(getter: Getter, namespace: string, name: string): Promise<KubeObject | undefined> {
    if (name === '') return undefined;
    try {
      return await getter.get(internalContext({ namespace, signal: this.#loop.signal }), name, {});
    } catch (err) {
      if (codeOf(err) === 404) return undefined;
      throw err;
    }
  }
}

/** The controller over the served API, or undefined when secrets or serviceaccounts are not served. */
export function newTokensController(
  groups: readonly APIGroupInfo[],
  opts: Omit<TokensControllerOptions, 'secrets' | 'serviceAccounts'>,
): TokensController | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const secrets = core?.['secrets'];
  const sa = core?.['serviceaccounts'];
  if (secrets === undefined || sa === undefined) return undefined;
  if (!isGetter(secrets) || !isLister(secrets) || !isWatcher(secrets) || !isUpdater(secrets))
    return undefined;
  if (!isGracefulDeleter(secrets) || !isGetter(sa) || !isLister(sa) || !isWatcher(sa)) return undefined;
  return new TokensController({ ...opts, secrets, serviceAccounts: sa });
}
