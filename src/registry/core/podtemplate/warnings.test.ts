import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { PodTemplate } from '../../../api/core/v1/pod-template.js';
import { testContext } from '../../generic/testing/widgets.js';
import { podTemplateStrategy } from './strategy.js';

const podTemplate = (generation: number): PodTemplate => ({
  metadata: { name: 'a.b', generation },
  template: { spec: { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: -1 } },
});
const grace =
  'template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1';
const ctx = testContext('default');

it('warns about the template at template, on create and once the generation moves', () => {
  // No name warning: a PodTemplate's name is no pod's.
  assert.deepEqual(podTemplateStrategy.warningsOnCreate(ctx, podTemplate(1)), [grace]);
  assert.deepEqual(podTemplateStrategy.warningsOnUpdate(ctx, podTemplate(2), podTemplate(1)), [grace]);
  assert.deepEqual(podTemplateStrategy.warningsOnUpdate(ctx, podTemplate(1), podTemplate(1)), []);
});
