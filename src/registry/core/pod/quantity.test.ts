// Validations that compare quantities do it exactly (bigint), where floats would round: sums and
// bounds past 2^53, fractions beyond a double's digits, and kube's milli-unit ratio of a LimitRange.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import { FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { validateLimitRange } from '../limitrange/validation.js';
import { validatePositiveQuantity } from '../persistentvolume/validation.js';
import { validateResourceQuantityValue } from '../resourcequota/resource-names.js';
import { computePodQOS } from './qos.js';
import { compareQuantityText, quantityOf } from './quantity.js';

const texts = (errs: ErrorList): string[] => errs.map((e) => e.error());
const container = (
  name: string,
  requests: Record<string, string>,
  limits: Record<string, string>,
): Container => ({
  name,
  image: 'x',
  resources: { requests, limits },
});
const limitRange = (item: Partial<LimitRangeItem>): LimitRange => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'default' },
  spec: { limits: [{ type: 'Container', ...item }] },
});

describe('exact quantity comparisons in validation', () => {
  it('compares quantity texts, undefined for text that is no quantity', () => {
    assert.equal(compareQuantityText('1', '1000m'), 0);
    assert.equal(compareQuantityText('9007199254740993', '9007199254740992'), 1);
    assert.equal(compareQuantityText('1Gi', 'x'), undefined);
    assert.equal(quantityOf('1..'), undefined);
  });

  it('sums requests and limits exactly for the QoS class', () => {
    const big = container(
      'a',
      { cpu: '1', memory: '9007199254740992' },
      { cpu: '1', memory: '9007199254740993' },
    );
    assert.equal(computePodQOS({ containers: [big] }), 'Burstable');
    const split = [
      container('a', { cpu: '100m', memory: '1Gi' }, { cpu: '0.15', memory: '512Mi' }),
      container('b', { cpu: '0.2', memory: '1Gi' }, { cpu: '150m', memory: '1536Mi' }),
    ];
    assert.equal(computePodQOS({ containers: split }), 'Guaranteed');
  });

  it('orders LimitRange bounds exactly', () => {
    const errs = validateLimitRange(
      limitRange({ min: { memory: '9007199254740993' }, max: { memory: '9007199254740992' } }),
    );
    assert.deepEqual(texts(errs), [
      'spec.limits[0].min[memory]: Invalid value: "9007199254740993": min value 9007199254740993 is greater than max value 9007199254740992',
    ]);
    assert.deepEqual(texts(validateLimitRange(limitRange({ min: { cpu: '1' }, max: { cpu: '1000m' } }))), []);
  });

  it('bounds maxLimitRequestRatio by max/min in milli units, as kube does', () => {
    // Value() would round 100m and 250m up to 1 and give max/min = 1; MilliValue gives 2.5.
    const ok = limitRange({
      min: { cpu: '100m' },
      max: { cpu: '250m' },
      maxLimitRequestRatio: { cpu: '2500m' },
    });
    assert.deepEqual(texts(validateLimitRange(ok)), []);
    const over = limitRange({
      min: { cpu: '100m' },
      max: { cpu: '250m' },
      maxLimitRequestRatio: { cpu: '2501m' },
    });
    assert.deepEqual(texts(validateLimitRange(over)), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "2501m": ratio 2501m is greater than max/min = 2.500000',
    ]);
  });

  it('knows integers and signs exactly', () => {
    const at = FieldPath.of('spec', 'hard').key('pods');
    assert.deepEqual(texts(validateResourceQuantityValue('pods', '1.0000000000000001', at)), [
      'spec.hard[pods]: Invalid value: "1.0000000000000001": must be an integer',
    ]);
    assert.deepEqual(texts(validateResourceQuantityValue('pods', '2000m', at)), []);
    assert.deepEqual(texts(validateResourceQuantityValue('cpu', '-1n', at)), [
      'spec.hard[pods]: Invalid value: "-1n": must be greater than or equal to 0',
    ]);
    assert.deepEqual(texts(validatePositiveQuantity('1n', at)), []);
    assert.deepEqual(texts(validatePositiveQuantity('-0', at)), [
      'spec.hard[pods]: Invalid value: "-0": must be greater than zero',
    ]);
  });
});
