// --encryption-provider-config-automatic-reload (DynamicEncryptionConfigContent in
// k8s.io/apiserver/pkg/server/options/encryptionconfig/controller): watches the file, and when its
// content changes loads it; a good configuration replaces the transformers in one swap, a bad one is
// logged and counted and the old one stays in force.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { TransformationMetrics } from '../../storage/value/metrics.js';
import type { DynamicTransformers } from '../../storage/value/resource-transformers.js';
import type { Logger } from '../logging/logger.js';
import { loadEncryptionConfig, readEncryptionConfigFile, transformersFor } from './load-config.js';
import type { EncryptionConfigMetrics } from './metrics.js';

export interface EncryptionConfigReloaderInit {
  readonly path: string;
  readonly transformers: DynamicTransformers;
  /** The content hash of the configuration the transformers were built from. */
  readonly contentHash: string;
  readonly logger: Logger;
  readonly metrics?: TransformationMetrics & Partial<EncryptionConfigMetrics>;
  /** The poll behind the file watch; kube polls every minute. */
  readonly pollIntervalMs?: number;
  /** How long file events settle before the file is read (editors write in several steps). */
  readonly settleMs?: number;
}

export const reloadOutcomes = ['unchanged', 'reloaded', 'failed'] as const;
export type ReloadOutcome = (typeof reloadOutcomes)[number];

export class EncryptionConfigReloader {
  readonly #init: EncryptionConfigReloaderInit;
  #lastLoaded: string;
  /** The content that last failed: not retried (nor logged again) until the file changes. */
  #lastFailed = '';
  #lastError: Error | undefined;
  #running: Promise<ReloadOutcome> = Promise.resolve('unchanged');
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #settle: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(init: EncryptionConfigReloaderInit) {
    this.#init = init;
    this.#lastLoaded = init.contentHash;
  }

  /** The error of the last failed reload, cleared by a successful one. */
  get lastError(): Error | undefined {
    return this.#lastError;
  }

  start(): void {
    if (this.#closed || this.#poll !== undefined) return;
    const name = basename(this.#init.path);
    try {
      // The directory, not the file: an atomic replace (or a ConfigMap's symlink swap) makes a new inode.
      this.#watcher = watch(dirname(this.#init.path), (_event, file) => {
        if (file === null || file === name || file.startsWith('..')) this.#schedule();
      });
      this.#watcher.on('error', () => undefined);
    } catch (err) {
      this.#init.logger.warn('cannot watch the encryption provider configuration; polling only', {
        path: this.#init.path,
        error: (err as Error).message,
      });
    }
    this.#poll = setInterval(() => {
      void this.check();
    }, this.#init.pollIntervalMs ?? 60_000);
    this.#poll.unref();
  }

  /** Reads the file now; resolves when this and any earlier check are done. */
  check(): Promise<ReloadOutcome> {
    this.#running = this.#running.then(() => (this.#closed ? 'unchanged' : this.#process()));
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#watcher?.close();
    clearInterval(this.#poll);
    clearTimeout(this.#settle);
    await this.#running;
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => {
      void this.check();
    }, this.#init.settleMs ?? 100);
    this.#settle.unref();
  }

  async #process(): Promise<ReloadOutcome> {
    const { path, logger, metrics } = this.#init;
    let hash = '';
    try {
      hash = (await readEncryptionConfigFile(path)).hash;
      if (hash === this.#lastLoaded || hash === this.#lastFailed) return 'unchanged';
      const loaded = await loadEncryptionConfig(path);
      if (loaded.contentHash === this.#lastLoaded) return 'unchanged';
      this.#init.transformers.set(transformersFor(loaded, metrics));
      this.#lastLoaded = loaded.contentHash;
      this.#lastFailed = '';
      this.#lastError = undefined;
      metrics?.recordAutomaticReload?.({ status: 'success', contentHash: loaded.contentHash });
      metrics?.recordLastConfig?.(loaded.contentHash);
      logger.info('Loaded new kms encryption config content', {
        name: 'encryption-provider-config-automatic-reload-controller',
      });
      return 'reloaded';
    } catch (err) {
      this.#lastFailed = hash;
      this.#lastError = err as Error;
      metrics?.recordAutomaticReload?.({ status: 'failure' });
      logger.error(`error processing encryption config file ${path}`, err);
      return 'failed';
    }
  }
}
