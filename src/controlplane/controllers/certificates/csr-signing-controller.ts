// kube-controller-manager's csrsigning controller (pkg/controller/certificates/signer/signer.go
// over certificates/certificate_controller.go): an approved request, not failed and not yet issued,
// for one of kube's signers is checked as that signer checks it, then either marked Failed
// (SignerValidationFailure) or issued a certificate by that signer's CA, both through /status.
// kube runs one loop per signer, each with its CA (the one cluster signing CA, or the signer's own
// files); one controller here serves the signers it has a CA for, and leaves the others' requests.
import type {
  BuiltinSignerName,
  CertificateSigningRequest,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { Clock } from '../../../machinery/time/clock.js';
import { checkCertificateRequest } from '../../../registry/certificates/certificatesigningrequest/request.js';
import { rfc3339 } from '../../../registry/generic/object-meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { SigningCA } from '../../../server/tls/signing-ca.js';
import { QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { hasTrueCondition, isApproved, isIssued } from './csr-conditions.js';
import { csrStorages, parseCSR, updateCSR, type CSRStorages } from './csr-storages.js';
import { signRequest } from './sign-request.js';
import { isBuiltinSigner, signerValidationError } from './signer-validation.js';

export const csrSigningControllerHookName = 'start-csrsigning-controller';

export interface CSRSigningOptions {
  readonly storages: CSRStorages;
  /** The CA of each signer served; a signer not here has no loop (kube: no files for it). */
  readonly signers: ReadonlyMap<BuiltinSignerName, SigningCA>;
  /** --cluster-signing-duration. */
  readonly certTTLMs: number;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

/** The request's signer and its CA, when that signer has something to do for it (handle's early returns). */
function signerFor(
  csr: CertificateSigningRequest,
  signers: ReadonlyMap<BuiltinSignerName, SigningCA>,
): { readonly name: BuiltinSignerName; readonly ca: SigningCA } | undefined {
  const name = csr.spec?.signerName ?? '';
  if (!isBuiltinSigner(name)) return undefined;
  const ca = signers.get(name);
  if (ca === undefined || isIssued(csr) || !isApproved(csr) || hasTrueCondition(csr, 'Failed'))
    return undefined;
  return { name, ca };
}

/** A sync that failed: requeued with backoff, as kube's certificate controller requeues. */
class SyncError extends Error {}

export class CSRSigningController {
  readonly #opts: CSRSigningOptions;
  readonly #loop: QueueController;

  constructor(opts: CSRSigningOptions) {
    this.#opts = opts;
    this.#loop = new QueueController({
      queueName: 'certificate',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'csrsigning',
      logPrefix: 'csrsigning',
      logger: opts.logger,
      clock: opts.clock,
      sources: [
        {
          what: 'certificatesigningrequests',
          source: opts.storages.csrs,
          onEvent: (type, obj, queue) => {
            if (type !== 'DELETED' && signerFor(obj as CertificateSigningRequest, opts.signers) !== undefined)
              queue.add(obj.metadata?.name ?? '');
          },
        },
      ],
      sync: (name) => this.#sync(name),
      onSyncError: (name, err) => {
        opts.logger.v(2, 'Sync failed', { controller: 'csrsigning', csr: name, err: errorText(err) });
        this.#loop.queue.addRateLimited(name);
      },
    });
  }

  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(name: string): Promise<void> {
    try {
      await updateCSR(internalContext({ signal: this.#loop.signal }), this.#opts.storages.status, {
        name,
        change: (csr) => this.#handle(csr),
      });
    } catch (err) {
      if (err instanceof StatusError && err.status.code === 404) return;
      throw err;
    }
  }

  /** signer.handle on a copy of the stored request: true when it was changed. */
  #handle(csr: CertificateSigningRequest): boolean {
    const signer = signerFor(csr, this.#opts.signers);
    if (signer === undefined) return false;
    const { name: signerName, ca } = signer;
    const spec = csr.spec ?? { request: '', signerName: '' };
    const name = csr.metadata?.name ?? '';
    const req = parseCSR(csr);
    if ('error' in req) throw new SyncError(`unable to parse csr ${JSON.stringify(name)}: ${req.error}`);
    const usages = spec.usages ?? [];
    const refused = signerValidationError(signerName, req, usages);
    const now = this.#opts.clock.now();
    if (refused !== undefined) {
      (csr.status ??= {}).conditions = [
        ...(csr.status.conditions ?? []),
        {
          type: 'Failed',
          status: 'True',
          reason: 'SignerValidationFailure',
          message: refused,
          lastUpdateTime: rfc3339(new Date(now)),
        },
      ];
      return true;
    }
    const badSignature = checkCertificateRequest(spec.request);
    if (badSignature !== undefined)
      throw new SyncError(
        `error auto signing csr: unable to verify certificate request signature: ${badSignature}`,
      );
    const signed = signRequest(
      req,
      { usages, expirationSeconds: spec.expirationSeconds },
      { ca, certTTLMs: this.#opts.certTTLMs, now },
    );
    if ('error' in signed) throw new SyncError(`error auto signing csr: ${signed.error}`);
    (csr.status ??= {}).certificate = Buffer.from(signed.pem).toString('base64');
    return true;
  }
}

/** The controller over the served CSRs, or undefined when they are not served. */
export function newCSRSigningController(
  groups: readonly APIGroupInfo[],
  opts: Omit<CSRSigningOptions, 'storages'>,
): CSRSigningController | undefined {
  const storages = csrStorages(groups);
  return storages === undefined ? undefined : new CSRSigningController({ ...opts, storages });
}
