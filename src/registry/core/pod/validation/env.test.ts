import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EnvFromSource, EnvVar } from '../../../../api/core/v1/container.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { subdomainMsg } from '../../../../machinery/validation/testing/kube-messages.js';
import { validateEnv, validateEnvFrom } from './env.js';

const envPath = FieldPath.of('spec', 'containers').index(0).child('env');
const env = (vars: EnvVar[]): string[] => validateEnv(vars, envPath).map(String);
const envFrom = (sources: EnvFromSource[]): string[] =>
  validateEnvFrom(sources, FieldPath.of('spec', 'containers').index(0).child('envFrom')).map(String);
const fieldRef = (fieldPath: string): string[] =>
  env([{ name: 'X', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } }]);

describe('ValidateEnv and ValidateEnvFrom as kube', () => {
  it('reports an empty variable name as required, and only that', () => {
    assert.deepEqual(env([{ name: '', value: 'x' }]), ['spec.containers[0].env[0].name: Required value']);
  });

  it('checks the names of env sources as name prefixes, so a trailing dash passes', () => {
    assert.deepEqual(
      envFrom([{ configMapRef: { name: 'settings-' } }, { secretRef: { name: 'creds-' } }]),
      [],
    );
    assert.deepEqual(envFrom([{ configMapRef: { name: 'Settings' } }, { secretRef: {} }]), [
      `spec.containers[0].envFrom[0].configMapRef.name: Invalid value: "Settings": ${subdomainMsg}`,
      'spec.containers[0].envFrom[1].secretRef.name: Required value',
    ]);
  });

  it('splits a subscripted field path as fieldpath.SplitMaybeSubscriptedPath does', () => {
    const at = 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath';
    assert.deepEqual(fieldRef("['app']"), [
      `${at}: Invalid value: "['app']": error converting fieldPath: field label not supported: ['app']`,
    ]);
    assert.deepEqual(fieldRef("metadata.name[']"), [
      `${at}: Invalid value: "metadata.name[']": error converting fieldPath: field label not supported: metadata.name[']`,
    ]);
    assert.deepEqual(fieldRef("metadata.name['x']"), [
      `${at}: Invalid value: "metadata.name['x']": error converting fieldPath: field label does not support subscript: metadata.name['x']`,
    ]);
    assert.deepEqual(fieldRef("metadata.labels['app']"), []);
  });
});
