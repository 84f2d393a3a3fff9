import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { StructuralDecoder } from './decoder.js';
import { scanText } from './duplicate-scan.js';
import { NumberLiteral, withNumberLiterals } from './number-literal.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);
const kind = (apiVersion: string, k: string) => {
  const info = scheme.kindFor(apiVersion, k);
  if (info === undefined) throw new Error(k);
  return info;
};
const decode = (apiVersion: string, k: string, text: string) =>
  decoder.decodeText(text, kind(apiVersion, k), { fieldValidation: 'Strict' });

const deployment = (replicas: string) =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":${replicas}}}`;

const podWithLimits = (limits: string) =>
  `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx:1.25","resources":{"limits":${limits}}}]}}`;

describe('numbers Go reads from their text', () => {
  it('finds a fraction or an exponent outside strings only', () => {
    assert.equal(scanText('{"a":1.0}').fractionOrExponent, true);
    assert.equal(scanText('{"a":[1e3]}').fractionOrExponent, true);
    assert.equal(scanText('{"a": 2E-1 }').fractionOrExponent, true);
    assert.equal(scanText('{"a":-0.5,"b":"x"}').fractionOrExponent, true);
    assert.equal(scanText('{"img":"nginx:1.25","n":3}').fractionOrExponent, false);
    assert.equal(scanText('{"a":"q\\"1.5e3","b":true,"c":false}').fractionOrExponent, false);
    assert.equal(scanText('{"a":"\\\\","b":10}').fractionOrExponent, false);
    assert.equal(scanText('{"a":"\\\\","b":1e1}').fractionOrExponent, true);
  });

  it('refuses an integer field written with a fraction or an exponent, as ParseInt does', () => {
    for (const literal of ['1.0', '1e0', '10E-1', '-0.0', '2.50']) {
      assert.equal(
        decode('apps/v1', 'Deployment', deployment(literal)).error,
        `json: cannot unmarshal number ${literal} into Go struct field DeploymentSpec.spec.replicas of type int32`,
      );
    }
    assert.equal(decode('apps/v1', 'Deployment', deployment('3')).error, undefined);
  });

  it('names the number as written in the error, in metadata too', () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","generation":1.50}}';
    assert.equal(
      decode('v1', 'ConfigMap', text).error,
      'json: cannot unmarshal number 1.50 into Go struct field ObjectMeta.metadata.generation of type int64',
    );
  });

  it('refuses an IntOrString written with a fraction', () => {
    const text =
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":8080.0}]}}';
    assert.equal(
      decode('v1', 'Service', text).error,
      'json: cannot unmarshal number 8080.0 into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
  });

  it('parses a Quantity from its text: an exponent is kept as written', () => {
    const res = decode('v1', 'Pod', podWithLimits('{"cpu":1e3,"memory":1.50,"ephemeral-storage":0.5}'));
    assert.equal(res.error, undefined);
    const pod = res.object as { spec: { containers: { resources: { limits: Record<string, string> } }[] } };
    assert.deepEqual(pod.spec.containers[0]?.resources.limits, {
      cpu: '1e3',
      memory: '1500m',
      'ephemeral-storage': '500m',
    });
  });

  it('decodes the rest of such a body as any other: strict errors, other numbers', () => {
    const text =
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":2,"bogus":1,"template":{"spec":{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":2.5}}}]}}}}';
    const res = decode('apps/v1', 'Deployment', text);
    assert.equal(res.error, undefined);
    assert.deepEqual(res.strictErrors, ['unknown field "spec.bogus"']);
    const d = res.object as {
      spec: { replicas: number; template: { spec: { containers: { resources: unknown }[] } } };
    };
    assert.equal(d.spec.replicas, 2);
    assert.deepEqual(d.spec.template.spec.containers[0]?.resources, { limits: { cpu: '2500m' } });
  });

  it("puts a merge patch's numbers into the patched object where the patch set them", () => {
    const patch =
      '{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":1e3}}}],"priority":2.0,"nodeSelector":null}}';
    const literals = decoder.numberLiterals(patch, kind('v1', 'Pod'));
    const patched = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: 1000 } } }],
        priority: 2,
      },
    };
    withNumberLiterals(patched, literals);
    assert.deepEqual(patched.spec.priority, new NumberLiteral('2.0', 2));
    const res = decoder.decodeValue(patched, kind('v1', 'Pod'), { fieldValidation: 'Strict' });
    assert.equal(
      res.error,
      'json: cannot unmarshal number 2.0 into Go struct field PodSpec.spec.priority of type int32',
    );
    // Where the patched object holds another value, it is left alone; a quantity keeps its text.
    const other = {
      spec: { containers: [{ name: 'c', resources: { limits: { cpu: 1000 } } }], priority: 3 },
    };
    withNumberLiterals(other, literals);
    assert.equal(other.spec.priority, 3);
    const decoded = decoder.decodeValue(
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...other },
      kind('v1', 'Pod'),
      { fieldValidation: 'Strict' },
    );
    assert.equal(decoded.error, undefined);
    const spec = (decoded.object as { spec: { containers: { resources: { limits: unknown } }[] } }).spec;
    assert.deepEqual(spec.containers[0]?.resources.limits, { cpu: '1e3' });
    assert.equal(decoder.numberLiterals('{"spec":{"priority":2}}', kind('v1', 'Pod')), undefined);
  });
});
