// csrapproving over real CSR storages and a stand-in SubjectAccessReview storage: a kubelet client
// request is approved (AutoApproved, kube's messages) when the review allows selfnodeclient for a
// node's own name or nodeclient for another; others are left pending.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccessReview } from '../../../api/authorization/v1/reviews.js';
import type { Creater } from '../../../registry/rest/capabilities.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import { CSRApprovingController } from './csr-approving-controller.js';
import { csrObject, newCSREnv, type CSREnv } from './testing/csr-env.js';
import { newCSR } from './testing/new-csr.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';

const kubeletClient = 'kubernetes.io/kube-apiserver-client-kubelet';
const usages = ['digital signature', 'client auth'];

describe('csrapproving controller', () => {
  let env: CSREnv;
  let controller: CSRApprovingController;
  /** Who may create which subresource: `user/subresource`. */
  const allowed = new Set(['system:node:n1/selfnodeclient', 'bootstrap/nodeclient']);
  const asked: string[] = [];
  const reviews: Creater = {
    create: (_ctx, obj) => {
      const review = obj as AccessReview;
      const key = `${review.spec.user ?? ''}/${review.spec.resourceAttributes?.subresource ?? ''}`;
      asked.push(`${key} ${review.spec.resourceAttributes?.verb ?? ''}`);
      return Promise.resolve({ ...review, status: { allowed: allowed.has(key) } });
    },
  };
  const approvedOf = async (name: string) =>
    (await env.get(name))?.status?.conditions?.find((c) => c.type === 'Approved');
  const waitApproved = async (name: string) =>
    (await waitFor(
      `${name} approved`,
      () => approvedOf(name),
      (c) => c !== undefined,
    )) as NonNullable<Awaited<ReturnType<typeof approvedOf>>>;
  const nodeRequest = (node: string) =>
    newCSR({ subject: { commonName: `system:node:${node}`, organization: ['system:nodes'] } }).request;

  before(async () => {
    env = await newCSREnv();
    controller = new CSRApprovingController({
      storages: env.storages,
      reviews,
      logger: new Logger({ sink: memorySink() }),
      clock: env.clock,
    });
    controller.run();
  });
  after(async () => {
    await controller.close();
    await env.close();
  });

  it("approves a node's renewal of its own client certificate (selfnodeclient)", async () => {
    await env.create(csrObject('renew', { request: nodeRequest('n1'), signerName: kubeletClient, usages }), {
      name: 'system:node:n1',
      groups: ['system:nodes', 'system:authenticated'],
    });
    const c = await waitApproved('renew');
    assert.deepEqual(
      [c.status, c.reason, c.message],
      ['True', 'AutoApproved', 'Auto approving self kubelet client certificate after SubjectAccessReview.'],
    );
    assert.ok(asked.includes('system:node:n1/selfnodeclient create'));
  });

  it('approves a bootstrap request for a new node (nodeclient), and leaves one not allowed pending', async () => {
    const bootstrap = { name: 'bootstrap', groups: ['system:bootstrappers', 'system:authenticated'] };
    await env.create(
      csrObject('denied-user', { request: nodeRequest('n3'), signerName: kubeletClient, usages }),
      {
        name: 'mallory',
        groups: ['system:authenticated'],
      },
    );
    await env.create(
      csrObject('join', { request: nodeRequest('n2'), signerName: kubeletClient, usages }),
      bootstrap,
    );
    const c = await waitApproved('join');
    assert.equal(c.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
    assert.ok(asked.includes('mallory/nodeclient create'));
    assert.equal(await approvedOf('denied-user'), undefined);
    // Not a kubelet client request (the usages), though from an allowed user: not even asked about.
    await env.create(
      csrObject('wrong-usages', {
        request: nodeRequest('n4'),
        signerName: kubeletClient,
        usages: ['server auth'],
      }),
      bootstrap,
    );
    await env.create(
      csrObject('marker', { request: nodeRequest('n5'), signerName: kubeletClient, usages }),
      bootstrap,
    );
    await waitApproved('marker');
    assert.equal(await approvedOf('wrong-usages'), undefined);
  });
});
