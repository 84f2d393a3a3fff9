import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../api/core/v1/pod.js';
import {
  defaultPodStages,
  matchingStage,
  parsePodStages,
  stageDelayMs,
  stageExitCode,
} from './pod-stages.js';

interface PodShape {
  phase?: string;
  annotations?: Record<string, string>;
  restartPolicy?: string;
  ownerKind?: string;
}
const pod = (over: PodShape): Pod =>
  ({
    metadata: {
      name: 'p',
      annotations: over.annotations ?? {},
      ownerReferences:
        over.ownerKind === undefined
          ? []
          : [{ apiVersion: 'batch/v1', kind: over.ownerKind, name: 'o', uid: 'u', controller: true }],
    },
    spec: { containers: [], restartPolicy: over.restartPolicy ?? 'Always' },
    status: { phase: over.phase ?? 'Pending' },
  }) as Pod;

describe('pod stages', () => {
  it('the defaults: stay-pending, start, and complete after run-seconds with the exit code', () => {
    assert.equal(
      matchingStage(defaultPodStages, pod({ annotations: { 'capstan.dev/stay-pending': 'true' } }))?.name,
      'stay-pending',
    );
    assert.equal(matchingStage(defaultPodStages, pod({}))?.name, 'start');
    assert.equal(matchingStage(defaultPodStages, pod({ phase: 'Running' })), undefined);
    const job = pod({
      phase: 'Running',
      restartPolicy: 'Never',
      annotations: { 'capstan.dev/exit-code': '2', 'capstan.dev/run-seconds': '7' },
    });
    const stage = matchingStage(defaultPodStages, job);
    assert.equal(stage?.name, 'complete');
    if (!('exit' in stage.next)) return assert.fail('no exit stage');
    assert.equal(stageDelayMs(stage, job), 7000);
    assert.equal(stageExitCode(stage.next.exit, job), 2);
    const unset = pod({
      phase: 'Running',
      restartPolicy: 'Never',
      annotations: { 'capstan.dev/exit-code': '0' },
    });
    assert.equal(stageDelayMs(stage, unset), 1000);
  });

  it("completes a Job's pods with 0 after run-seconds, unannotated, as kwok's pod-complete stage", () => {
    const jobPod = pod({ phase: 'Running', restartPolicy: 'Never', ownerKind: 'Job' });
    const stage = matchingStage(defaultPodStages, jobPod);
    assert.equal(stage?.name, 'job-complete');
    if (!('exit' in stage.next)) return assert.fail('no exit stage');
    assert.equal(stageDelayMs(stage, jobPod), 1000);
    assert.equal(stageExitCode(stage.next.exit, jobPod), 0);
    const slow = pod({
      phase: 'Running',
      restartPolicy: 'Never',
      ownerKind: 'Job',
      annotations: { 'capstan.dev/run-seconds': '90' },
    });
    assert.equal(stageDelayMs(stage, slow), 90_000);
    // An annotated exit code still goes through 'complete'; other owners' pods keep running.
    const failing = pod({
      phase: 'Running',
      restartPolicy: 'OnFailure',
      ownerKind: 'Job',
      annotations: { 'capstan.dev/exit-code': '4' },
    });
    assert.equal(matchingStage(defaultPodStages, failing)?.name, 'complete');
    assert.equal(
      matchingStage(
        defaultPodStages,
        pod({ phase: 'Running', restartPolicy: 'Never', ownerKind: 'Workflow' }),
      ),
      undefined,
    );
    assert.equal(
      matchingStage(defaultPodStages, pod({ phase: 'Running', ownerKind: 'ReplicaSet' })),
      undefined,
    );
  });

  it('reads YAML and refuses stages it does not understand, naming where', () => {
    const parsed = parsePodStages('stages:\n- name: up\n  next: {phase: Running, ready: false}\n', 'f.yaml');
    assert.deepEqual(parsed.stages[0]?.next, { phase: 'Running', ready: false });
    assert.throws(
      () => parsePodStages('stages: 3', 'f.yaml'),
      /^Error: f.yaml: expected an object with a stages list$/,
    );
    assert.throws(
      () => parsePodStages('{"stages":[{"name":"x","next":{"phase":"Succeeded"}}]}', 's.json'),
      /s.json: stages\[0\].next.phase: only Running \(use exit for Succeeded or Failed\)/,
    );
    assert.throws(
      () => parsePodStages('{"stages":[{"name":"x","next":{"stay":true,"exit":{}}}]}', 's.json'),
      /stages\[0\].next: exactly one of stay, phase \(Running\) or exit/,
    );
    assert.throws(
      () =>
        parsePodStages(
          '{"stages":[{"name":"x","selector":{"ownerKinds":"Job"},"next":{"stay":true}}]}',
          's.json',
        ),
      /stages\[0\].selector.ownerKinds: expected a list of kinds/,
    );
  });
});
