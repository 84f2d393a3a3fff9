// The request decoder leaves an optional scalar without omitempty absent when it holds its Go zero
// (a core Event's `"reportingComponent":""`), as stored bytes are read back (go-zero-members.ts):
// kube's Go struct cannot tell "" from nothing, and Capstan writes the "" either way.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from '../json/go-member-order.js';
import { withoutGoZeroMembers } from '../json/go-zero-members.js';
import { StructuralDecoder } from './decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);

function decode(apiVersion: string, kind: string, body: Record<string, unknown>): Record<string, unknown> {
  const info = scheme.kindFor(apiVersion, kind);
  if (info === undefined) throw new Error(kind);
  const res = decoder.decodeText(JSON.stringify({ apiVersion, kind, ...body }), info, {
    fieldValidation: 'Strict',
  });
  assert.equal(res.error, undefined);
  return res.object as Record<string, unknown>;
}

it('drops an Event’s "" reportingComponent and reportingInstance, and does not default them to ""', () => {
  const sent = decode('v1', 'Event', {
    metadata: { name: 'e' },
    reportingComponent: '',
    reportingInstance: 'i',
  });
  assert.equal('reportingComponent' in sent, false);
  assert.equal(sent['reportingInstance'], 'i');
  const unsent = decode('v1', 'Event', { metadata: { name: 'e' } });
  assert.equal('reportingComponent' in unsent, false);
  assert.equal('reportingInstance' in unsent, false);
});

it('drops a service port’s targetPort 0 and a StatefulSet’s serviceName "", keeps a required scalar’s zero', () => {
  const svc = decode('v1', 'Service', { spec: { ports: [{ port: 80, targetPort: 0 }] } });
  assert.deepEqual((svc['spec'] as { ports: unknown[] }).ports, [{ port: 80, protocol: 'TCP' }]);
  const pod = decode('v1', 'Pod', { spec: { containers: [{ name: '', ports: [{ containerPort: 0 }] }] } });
  const [container] = (pod['spec'] as { containers: Record<string, unknown>[] }).containers;
  assert.equal(container?.['name'], '');
  assert.deepEqual(container['ports'], [{ containerPort: 0, protocol: 'TCP' }]);
  const sts = decode('apps/v1', 'StatefulSet', { spec: { serviceName: '', ordinals: { start: 0 } } });
  const spec = sts['spec'] as Record<string, unknown>;
  assert.equal('serviceName' in spec, false);
  assert.deepEqual(spec['ordinals'], {});
});

it('does not default an omitempty reference name to "", which Go cannot tell from none', () => {
  // kube's OpenAPI gives LocalObjectReference's name `default: ""`; a PUT of a Pod read back with
  // `imagePullSecrets: [{}]` was refused as a spec change when the decode put the "" back.
  for (const ips of [[{}], [{ name: '' }], [null]]) {
    const pod = decode('v1', 'Pod', {
      spec: { containers: [{ name: 'c', image: 'i' }], imagePullSecrets: ips },
    });
    assert.deepEqual((pod['spec'] as { imagePullSecrets: unknown }).imagePullSecrets, [{}]);
  }
  const withRef = decode('v1', 'Pod', {
    spec: { containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: {} }] }] },
  });
  const [c] = (withRef['spec'] as { containers: Record<string, unknown>[] }).containers;
  assert.deepEqual(c?.['envFrom'], [{ configMapRef: {} }]);
});

it('decodes what it writes to the object read back from those bytes', () => {
  const event = decode('v1', 'Event', { metadata: { name: 'e' }, reason: 'R', reportingComponent: '' });
  const bytes = JSON.stringify(inGoMemberOrder(scheme, event));
  assert.match(bytes, /"reportingComponent":"","reportingInstance":""/);
  assert.deepEqual(withoutGoZeroMembers(scheme, JSON.parse(bytes) as unknown), event);
});
