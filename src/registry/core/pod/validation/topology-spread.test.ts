import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TopologySpreadConstraint } from '../../../../api/core/v1/pod-spec-parts.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
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
        'spec.topologySpreadConstraints[3]: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"',
      ],
    );
  });
});
