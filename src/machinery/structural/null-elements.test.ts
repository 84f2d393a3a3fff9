import assert from 'node:assert/strict';
import { it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { StructuralDecoder } from './decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);

/** A Pod body through the decoder, strictly. */
function decodePod(body: unknown): ReturnType<StructuralDecoder['decodeText']> {
  const pod = scheme.kindFor('v1', 'Pod');
  if (pod === undefined) throw new Error('Pod');
  return decoder.decodeText(JSON.stringify(body), pod, { fieldValidation: 'Strict' });
}

it('decodes a null element of a list of structs as Go does: an empty struct for validation to judge', () => {
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { containers: [null], volumes: [null, { name: 'v' }] },
  };
  const res = decodePod(body);
  assert.equal(res.error, undefined);
  const spec = (res.object as { spec: { containers: unknown[]; volumes: unknown[] } }).spec;
  assert.equal(typeof spec.containers[0], 'object');
  assert.notEqual(spec.containers[0], null);
  assert.notEqual(spec.volumes[0], null);
  assert.deepEqual(spec.volumes[1], { name: 'v' });
});

it('decodes a null member that Go holds by value (not a pointer) as its zero struct, a null pointer as absent', () => {
  // k8s.io/api 1.33: PreferredSchedulingTerm.Preference, WeightedPodAffinityTerm.PodAffinityTerm,
  // Container.Resources, PersistentVolumeClaimTemplate's ObjectMeta and Spec are structs held by
  // value: a JSON null leaves their zero value, which Go writes as {}; Affinity is a pointer.
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      containers: [{ name: 'c', resources: null }],
      affinity: {
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: null }] },
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: null }],
        },
      },
      volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { metadata: null, spec: null } } }],
    },
    status: null,
  };
  const res = decodePod(body);
  assert.equal(res.error, undefined);
  const obj = res.object as {
    spec: {
      containers: { resources?: unknown }[];
      affinity: {
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: { preference?: unknown }[] };
        podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: { podAffinityTerm?: unknown }[] };
      };
      volumes: { ephemeral: { volumeClaimTemplate: { metadata?: unknown; spec?: unknown } } }[];
    };
    status?: unknown;
  };
  assert.deepEqual(obj.spec.containers[0]?.resources, {});
  assert.deepEqual(
    obj.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]?.preference,
    {},
  );
  assert.deepEqual(
    obj.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]?.podAffinityTerm,
    {},
  );
  const claim = obj.spec.volumes[0]?.ephemeral.volumeClaimTemplate;
  assert.ok(claim !== undefined);
  assert.deepEqual(claim.metadata, {});
  // The zero spec, defaulted as the schema says (volumeMode), and its own struct member.
  assert.deepEqual(claim.spec, { resources: {}, volumeMode: 'Filesystem' });
  assert.deepEqual(obj.status, {});

  const withNullPointer = decodePod({
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { containers: [], affinity: null },
  });
  assert.equal('affinity' in (withNullPointer.object as { spec: object }).spec, false);
});

it('decodes a null Quantity in a resource list as Go does: the zero Quantity, "0"', () => {
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      containers: [
        { name: 'c', resources: { limits: { cpu: null, memory: '1Gi' }, requests: { cpu: null } } },
      ],
      overhead: { memory: null },
    },
  };
  const res = decodePod(body);
  assert.equal(res.error, undefined);
  const spec = (res.object as { spec: { containers: { resources: unknown }[]; overhead: unknown } }).spec;
  assert.deepEqual(spec.containers[0]?.resources, {
    limits: { cpu: '0', memory: '1Gi' },
    requests: { cpu: '0' },
  });
  assert.deepEqual(spec.overhead, { memory: '0' });
});
