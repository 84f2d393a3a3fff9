import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { validateEnv } from './env.js';
import { validateResourceFieldSelector, validateResourceRequirements } from './resources.js';

const divisorOf = (resource: string, divisor: string): string[] =>
  validateEnv(
    [{ name: 'X', valueFrom: { resourceFieldRef: { resource, divisor } } }],
    FieldPath.of('spec', 'containers').index(0).child('env'),
  ).map(String);

const at = 'spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor';
const units = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

describe('validateContainerResourceDivisor', () => {
  it('takes the divisors kube lists for each resource, compared in canonical form', () => {
    assert.deepEqual(divisorOf('limits.cpu', '1m'), []);
    assert.deepEqual(divisorOf('requests.cpu', '1000m'), []);
    assert.deepEqual(divisorOf('limits.memory', '1Mi'), []);
    assert.deepEqual(divisorOf('requests.ephemeral-storage', '1G'), []);
    assert.deepEqual(divisorOf('limits.hugepages-2Mi', '1Ki'), []);
    assert.deepEqual(divisorOf('limits.cpu', '0'), []);
  });

  it("refuses others, naming the resource as the bad value, in kube's words", () => {
    assert.deepEqual(divisorOf('limits.cpu', '1Mi'), [
      `${at}: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
    ]);
    assert.deepEqual(divisorOf('requests.memory', '1m'), [
      `${at}: Invalid value: "requests.memory": only divisor's values ${units} are supported with the memory resource`,
    ]);
    assert.deepEqual(divisorOf('limits.ephemeral-storage', '3'), [
      `${at}: Invalid value: "limits.ephemeral-storage": only divisor's values ${units} are supported with the local ephemeral storage resource`,
    ]);
    assert.deepEqual(divisorOf('requests.hugepages-1Gi', '2Mi'), [
      `${at}: Invalid value: "requests.hugepages-1Gi": only divisor's values ${units} are supported with the hugepages resource`,
    ]);
  });

  it('checks the divisor after a missing container name or resource too', () => {
    const path = FieldPath.of('spec', 'volumes')
      .index(0)
      .child('downwardAPI', 'items')
      .index(0)
      .child('resourceFieldRef');
    assert.deepEqual(
      validateResourceFieldSelector({ resource: 'limits.cpu', divisor: '2' }, { path, volume: true }).map(
        String,
      ),
      [
        'spec.volumes[0].downwardAPI.items[0].resourceFieldRef.containerName: Required value',
        `spec.volumes[0].downwardAPI.items[0].resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
      ],
    );
  });
});

describe('validateResourceRequirements hugepages', () => {
  const check = (limits: Record<string, string>): string[] =>
    validateResourceRequirements(
      { limits },
      FieldPath.of('spec', 'containers').index(0).child('resources'),
    ).map(String);

  it('reports a negative multiple of the page size by its sign only', () => {
    assert.deepEqual(check({ 'hugepages-2Mi': '-2Mi', memory: '1Gi' }), [
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "-2Mi": must be greater than or equal to 0',
    ]);
  });

  it('refuses what is no whole number of pages', () => {
    assert.deepEqual(check({ 'hugepages-2Mi': '3Mi', memory: '1Gi' }), [
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]);
  });
});
