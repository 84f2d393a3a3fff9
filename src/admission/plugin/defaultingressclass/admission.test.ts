// DefaultIngressClass through the default chain over the real Ingress and IngressClass storages.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Ingress } from '../../../api/networking/v1/ingress.js';
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newIngressREST } from '../../../registry/networking/ingress/storage.js';
import { newIngressClassREST } from '../../../registry/networking/ingressclass/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { defaultIngressClassPluginName } from './admission.js';

const ingressAt = { group: 'networking.k8s.io', resource: 'ingresses', namespace: 'team' };
const classesAt = { group: 'networking.k8s.io', resource: 'ingressclasses' };
const ingress = (
  name: string,
  extra: { ingressClassName?: string; annotations?: Record<string, string> } = {},
): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name, ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }) },
  spec: {
    defaultBackend: { service: { name: 'web', port: { number: 80 } } },
    ...(extra.ingressClassName === undefined ? {} : { ingressClassName: extra.ingressClassName }),
  },
});
const ingressClass = (name: string, annotations: Record<string, string> = {}): IngressClass => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name, annotations },
  spec: { controller: 'example.com/ingress' },
});
const isDefault = { 'ingressclass.kubernetes.io/is-default-class': 'true' };

describe('DefaultIngressClass admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;
  const classOf = async (name: string, extra?: Parameters<typeof ingress>[1]): Promise<string | undefined> =>
    (await api.create(ingressAt, ingress(name, extra))).spec?.ingressClassName;

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const ingresses = await newIngressREST(opts);
    api = admittedGroupsOf({
      'networking.k8s.io': {
        ingresses: ingresses.ingresses,
        ingressclasses: await newIngressClassREST(opts),
      },
    });
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when ingressclasses are served', () => {
    assert.deepEqual(api.chain.names, [defaultIngressClassPluginName]);
  });

  it('leaves an ingress unchanged while no class is the default', async () => {
    await api.create(
      classesAt,
      ingressClass('plain', { 'ingressclass.kubernetes.io/is-default-class': 'True' }),
    );
    assert.equal(await classOf('none'), undefined);
  });

  it('gives an ingress without a class the default one; the newest of several', async () => {
    await api.create(classesAt, ingressClass('old-default', isDefault));
    assert.equal(await classOf('first'), 'old-default');
    await sleep(1100);
    await api.create(classesAt, ingressClass('new-default', isDefault));
    assert.equal(await classOf('second'), 'new-default');
  });

  it('keeps a class the ingress names, by field or by the kubernetes.io/ingress.class annotation', async () => {
    assert.equal(await classOf('named', { ingressClassName: 'plain' }), 'plain');
    assert.equal(
      await classOf('annotated', { annotations: { 'kubernetes.io/ingress.class': 'nginx' } }),
      undefined,
    );
  });
});
