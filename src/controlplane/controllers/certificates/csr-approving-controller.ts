// kube-controller-manager's csrapproving controller (pkg/controller/certificates/approver/
// sarapprove.go): a pending kubernetes.io/kube-apiserver-client-kubelet request that is a kubelet
// client certificate request is approved (AutoApproved) when its requester may create
// certificatesigningrequests/selfnodeclient (a node renewing its own: the CN is the requester) or
// /nodeclient, asked as a SubjectAccessReview; a recognized one not allowed is tried again later.
import type { AccessReview } from '../../../api/authorization/v1/reviews.js';
import {
  kubeletClientSignerName,
  type CertificateSigningRequest,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { Clock } from '../../../machinery/time/clock.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isCreater, type Creater } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { CertificateRequest } from '../../../server/tls/certificate-request.js';
import { QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { approvalOf, isIssued } from './csr-conditions.js';
import { csrStorages, parseCSR, updateCSR, type CSRStorages } from './csr-storages.js';
import { kubeletClientError } from './signer-validation.js';

export const csrApprovingControllerHookName = 'start-csrapproving-controller';

interface Recognizer {
  readonly recognize: (csr: CertificateSigningRequest, req: CertificateRequest) => boolean;
  readonly subresource: 'selfnodeclient' | 'nodeclient';
  readonly successMessage: string;
}

const isNodeClientCert = (csr: CertificateSigningRequest, req: CertificateRequest): boolean =>
  csr.spec?.signerName === kubeletClientSignerName &&
  kubeletClientError(req, new Set(csr.spec.usages ?? [])) === undefined;

const recognizers: readonly Recognizer[] = [
  {
    recognize: (csr, req) =>
      (csr.spec?.username ?? '') === (req.subject.commonName ?? '') && isNodeClientCert(csr, req),
    subresource: 'selfnodeclient',
    successMessage: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    recognize: isNodeClientCert,
    subresource: 'nodeclient',
    successMessage: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

export interface CSRApprovingOptions {
  readonly storages: CSRStorages;
  /** authorization.k8s.io/v1 subjectaccessreviews. */
  readonly reviews: Creater;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const pending = (csr: CertificateSigningRequest): boolean => {
  const { approved, denied } = approvalOf(csr);
  return !isIssued(csr) && !approved && !denied;
};

export class CSRApprovingController {
  readonly #opts: CSRApprovingOptions;
  readonly #loop: QueueController;

  constructor(opts: CSRApprovingOptions) {
    this.#opts = opts;
    this.#loop = new QueueController({
      queueName: 'certificate',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'csrapproving',
      logPrefix: 'csrapproving',
      logger: opts.logger,
      clock: opts.clock,
      sources: [
        {
          what: 'certificatesigningrequests',
          source: opts.storages.csrs,
          mentions: kubeletClientSignerName,
          onEvent: (type, obj, queue) => {
            const csr = obj as CertificateSigningRequest;
            if (type !== 'DELETED' && csr.spec?.signerName === kubeletClientSignerName && pending(csr))
              queue.add(obj.metadata?.name ?? '');
          },
        },
      ],
      sync: (name) => this.#sync(name),
      onSyncError: (name, err) => {
        opts.logger.v(4, 'Sync failed', { controller: 'csrapproving', csr: name, err: errorText(err) });
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

  get #ctx(): RequestContext {
    return internalContext({ signal: this.#loop.signal });
  }

  async #sync(name: string): Promise<void> {
    let csr: CertificateSigningRequest;
    try {
      csr = (await this.#opts.storages.csrs.get(this.#ctx, name, {})) as CertificateSigningRequest;
    } catch (err) {
      if (err instanceof StatusError && err.status.code === 404) return;
      throw err;
    }
    if (!pending(csr)) return;
    const req = parseCSR(csr);
    if ('error' in req) throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${req.error}`);
    const tried: string[] = [];
    for (const r of recognizers) {
      if (!r.recognize(csr, req)) continue;
      tried.push(r.subresource);
      if (!(await this.#allowed(csr, r.subresource))) continue;
      await this.#approve(name, r.successMessage);
      return;
    }
    if (tried.length > 0)
      throw new Error(
        `recognized csr ${JSON.stringify(name)} as [${tried.join(' ')}] but subject access review was not approved`,
      );
  }

  /** A SubjectAccessReview for the requester: may it create the subresource? */
  async #allowed(csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
    const spec = csr.spec;
    const review: AccessReview = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        ...(spec?.username === undefined ? {} : { user: spec.username }),
        ...(spec?.uid === undefined ? {} : { uid: spec.uid }),
        ...(spec?.groups === undefined ? {} : { groups: spec.groups }),
        ...(spec?.extra === undefined ? {} : { extra: spec.extra }),
        resourceAttributes: {
          group: 'certificates.k8s.io',
          resource: 'certificatesigningrequests',
          verb: 'create',
          subresource,
        },
      },
    };
    const answer = (await this.#opts.reviews.create(this.#ctx, review, { options: {} })) as AccessReview;
    return answer.status?.allowed === true;
  }

  /** Appends the Approved condition through /approval, unless the request was decided meanwhile. */
  async #approve(name: string, message: string): Promise<void> {
    await updateCSR(this.#ctx, this.#opts.storages.approval, {
      name,
      change: (csr) => {
        if (!pending(csr)) return false;
        (csr.status ??= {}).conditions = [
          ...(csr.status.conditions ?? []),
          { type: 'Approved', status: 'True', reason: 'AutoApproved', message },
        ];
        return true;
      },
    });
  }
}

/** The controller over the served CSRs and access reviews, or undefined when either is not served. */
export function newCSRApprovingController(
  groups: readonly APIGroupInfo[],
  opts: Omit<CSRApprovingOptions, 'storages' | 'reviews'>,
): CSRApprovingController | undefined {
  const storages = csrStorages(groups);
  const reviews = groups.find((g) => g.group === 'authorization.k8s.io')?.versionedResourcesStorageMap[
    'v1'
  ]?.['subjectaccessreviews'];
  if (storages === undefined || reviews === undefined || !isCreater(reviews)) return undefined;
  return new CSRApprovingController({ ...opts, storages, reviews });
}
