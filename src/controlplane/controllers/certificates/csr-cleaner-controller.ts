// kube-controller-manager's csrcleaner controller (pkg/controller/certificates/cleaner/cleaner.go):
// every hour, on the server's clock, deletes the requests kept long enough: issued an hour after
// approval, denied or failed an hour after that condition, pending a day after creation, and any
// whose issued certificate has expired.
import { X509Certificate } from 'node:crypto';
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { Clock, ClockTimer } from '../../../machinery/time/clock.js';
import { pemBlocks, wireBytes } from '../../../registry/certificates/certificatesigningrequest/pem.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';
import { isIssued } from './csr-conditions.js';
import { csrStorages, type CSRStorages } from './csr-storages.js';

export const csrCleanerControllerHookName = 'start-csrcleaner-controller';

const hour = 3_600_000;
export const pollingIntervalMs = hour;
const approvedExpirationMs = hour;
const deniedExpirationMs = hour;
const pendingExpirationMs = 24 * hour;

/** isOlderThan: a time that is set and lies more than `ms` before now. */
const olderThan = (time: string | undefined, ms: number, now: number): boolean =>
  (time ?? '') !== '' && now - Date.parse(time ?? '') > ms;

/** isExpired: the first issued certificate's notAfter has passed (one that does not parse has not). */
function certificateExpired(csr: CertificateSigningRequest, now: number): boolean {
  const block = pemBlocks(wireBytes(csr.status?.certificate).toString('latin1'))[0];
  if (block === undefined) return false;
  try {
    return now > Date.parse(new X509Certificate(block.bytes).validTo);
  } catch {
    return false;
  }
}

/** Why the cleaner deletes the request now (its log line), or undefined when it stays. */
export function cleanupReason(csr: CertificateSigningRequest, now: number): string | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = isIssued(csr);
  if (
    conditions.some(
      (c) => c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, approvedExpirationMs, now),
    )
  )
    return 'Cleaning CSR as it is more than approvedExpiration duration old and approved.';
  if (conditions.some((c) => c.type === 'Denied' && olderThan(c.lastUpdateTime, deniedExpirationMs, now)))
    return 'Cleaning CSR as it is more than deniedExpiration duration old and denied.';
  if (conditions.some((c) => c.type === 'Failed' && olderThan(c.lastUpdateTime, deniedExpirationMs, now)))
    return 'Cleaning CSR as it is more than deniedExpiration duration old and failed.';
  if (
    conditions.length === 0 &&
    olderThan(csr.metadata?.creationTimestamp ?? undefined, pendingExpirationMs, now)
  )
    return 'Cleaning CSR as it is more than pendingExpiration duration old and unhandled.';
  if (issued && conditions.some((c) => c.type === 'Approved') && certificateExpired(csr, now))
    return 'Cleaning CSR as the associated certificate is expired.';
  return undefined;
}

export interface CSRCleanerOptions {
  readonly storages: CSRStorages;
  readonly logger: Logger;
  readonly clock: Clock;
}

export class CSRCleanerController {
  readonly #opts: CSRCleanerOptions;
  readonly #abort = new AbortController();
  #timer: ClockTimer | undefined;
  #pass: Promise<void> = Promise.resolve();

  constructor(opts: CSRCleanerOptions) {
    this.#opts = opts;
  }

  /** A pass now and one every hour after, until closed. */
  run(): void {
    if (this.#timer !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting CSR cleaner controller');
    this.#timer = this.#opts.clock.setInterval(() => {
      this.#schedule();
    }, pollingIntervalMs);
    this.#schedule();
  }

  async close(): Promise<void> {
    if (this.#abort.signal.aborted) return;
    this.#abort.abort(stopReason);
    this.#timer?.cancel();
    await this.#pass;
    if (this.#timer !== undefined) this.#opts.logger.info('Shutting down CSR cleaner controller');
  }

  /** The next pass, after the one in progress (a slow pass does not overlap the next). */
  #schedule(): void {
    this.#pass = this.#pass.then(() => this.pass());
  }

  /** One pass over every request (the worker); errors are logged and the next pass tries again. */
  async pass(): Promise<void> {
    const { storages, logger, clock } = this.#opts;
    const signal = this.#abort.signal;
    // A function, not the property: closing may abort it across any await below.
    const stopped = (): boolean => signal.aborted;
    if (stopped()) return;
    const ctx = internalContext({ signal });
    let items: CertificateSigningRequest[];
    try {
      items = (await storages.csrs.list(ctx, {})).items as CertificateSigningRequest[];
    } catch (err) {
      if (!stopped()) logger.error('Unable to list CSRs', err);
      return;
    }
    for (const csr of items) {
      const name = csr.metadata?.name ?? '';
      const reason = cleanupReason(csr, clock.now());
      if (reason === undefined || stopped()) continue;
      logger.info(reason, { csr: name });
      try {
        await storages.csrs.delete(ctx, name, { options: {} });
      } catch (err) {
        if (err instanceof StatusError && err.status.code === 404) continue;
        if (!stopped())
          logger.error('Error while attempting to clean CSR', err, { csr: name, err: errorText(err) });
      }
    }
  }
}

/** The cleaner over the served CSRs, or undefined when they are not served. */
export function newCSRCleanerController(
  groups: readonly APIGroupInfo[],
  opts: Omit<CSRCleanerOptions, 'storages'>,
): CSRCleanerController | undefined {
  const storages = csrStorages(groups);
  return storages === undefined ? undefined : new CSRCleanerController({ ...opts, storages });
}
