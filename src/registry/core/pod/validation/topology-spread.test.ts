import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TopologySpreadConstraint } from '../../../../api/core/v1/pod-spec-parts.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { labelValueMsg, namePartMsg } from '../../../../machinery/validation/testing/kube-messages.js';
import { validateTopologySpreadConstraints } from './topology-spread.js';

const check = (constraints: TopologySpreadConstraint[]): string[] =>
  validateTopologySpreadConstraints(
    { containers: [], topologySpreadConstraints: constraints },
    FieldPath.of('spec', 'topologySpreadConstraints'),
  ).map((e) => e.toString());

const zone = { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' };

describe('validateTopologySpreadConstraints', () => {
  it('takes constraints on different keys or actions, minDomains with DoNotSchedule', () => {
    assert.deepEqual(
      check([
        { ...zone, minDomains: 2, nodeAffinityPolicy: 'Honor' },
        { ...zone, whenUnsatisfiable: 'ScheduleAnyway' },
        { ...zone, topologyKey: 'kubernetes.io/hostname' },
      ]),
      [],
    );
  });

  it("refuses what kube refuses, with kube's messages", () => {
    assert.deepEqual(
      check([
        { maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Sometimes' },
        { ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 3, nodeTaintsPolicy: 'Maybe' },
        zone,
        zone,
      ]),
      [
        'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty',
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
        'spec.topologySpreadConstraints[1].minDomains: Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
        'spec.topologySpreadConstraints[1].nodeTaintsPolicy: Unsupported value: "Maybe": supported values: "Honor", "Ignore"',
        'spec.topologySpreadConstraints[2].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"',
      ],
    );
  });

  it('reports both minDomains errors, and takes any non-empty topology key as kube does', () => {
    assert.deepEqual(
      check([
        { ...zone, topologyKey: 'not a label/name!', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 0 },
      ]),
      [
        'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
    );
  });

  it('checks matchLabelKeys against the selector, and the selector itself', () => {
    assert.deepEqual(
      check([
        { ...zone, matchLabelKeys: ['pod-template-hash'] },
        {
          ...zone,
          topologyKey: 'kubernetes.io/hostname',
          labelSelector: {
            matchLabels: { app: 'web' },
            matchExpressions: [{ key: 'tier', operator: 'In', values: ['a b'] }],
          },
          matchLabelKeys: ['app', 'tier', 'bad key', 'pod-template-hash'],
        },
      ]),
      [
        'spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
        'spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
        'spec.topologySpreadConstraints[1].matchLabelKeys[1]: Invalid value: "tier": exists in both matchLabelKeys and labelSelector',
        `spec.topologySpreadConstraints[1].matchLabelKeys[2]: Invalid value: "bad key": ${namePartMsg}`,
        `spec.topologySpreadConstraints[1].labelSelector.matchExpressions[0].values[0]: Invalid value: "a b": ${labelValueMsg}`,
      ],
    );
  });
});
