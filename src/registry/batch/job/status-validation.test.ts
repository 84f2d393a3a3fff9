import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobCondition, JobSpec, JobStatus } from '../../../api/batch/v1/job.js';
import { validateJobStatusTransition } from './status-update-validation.js';

const t0 = '2026-01-01T00:00:00Z';
const t1 = '2026-01-01T00:01:00Z';
const t2 = '2026-01-01T00:02:00Z';

const cond = (type: string, status = 'True'): JobCondition => ({ type, status });
const running: JobStatus = { startTime: t0, active: 1, ready: 1 };
const met: JobStatus = { startTime: t0, conditions: [cond('SuccessCriteriaMet')], succeeded: 1 };
const complete: JobStatus = {
  startTime: t0,
  completionTime: t1,
  succeeded: 1,
  conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
};
const failureTarget: JobStatus = { startTime: t0, failed: 1, conditions: [cond('FailureTarget')] };
const failed: JobStatus = { ...failureTarget, conditions: [cond('FailureTarget'), cond('Failed')] };

const nonIndexed: JobSpec = { completions: 1, parallelism: 1, completionMode: 'NonIndexed' };
const indexed: JobSpec = { completions: 4, parallelism: 2, completionMode: 'Indexed' };
const perIndex: JobSpec = { ...indexed, backoffLimitPerIndex: 1 };

/** The errors kube renders for updating a Job's status from `from` to `to`. */
const errorsOf = (from: JobStatus, to: JobStatus, spec: JobSpec = nonIndexed): string[] => {
  const job = (status: JobStatus): Job => ({ metadata: { name: 'j', namespace: 'ns' }, spec, status });
  return validateJobStatusTransition(job(to), job(from)).map((e) => e.error());
};

const conditions = (detail: string) => `status.conditions: Invalid value: ${detail}`;

type Case = [name: string, from: JobStatus, to: JobStatus, expected: string[], spec?: JobSpec];

const accepted: Case[] = [
  ['a first startTime on a running Job', {}, running, []],
  ['running to SuccessCriteriaMet', running, met, []],
  ['SuccessCriteriaMet to Complete with completionTime', met, complete, []],
  ['running to FailureTarget', running, failureTarget, []],
  ['FailureTarget to Failed', failureTarget, failed, []],
  ['a finished Job left as it is', complete, complete, []],
  [
    'an Indexed Job scaled down (parallelism = completions) may lower succeeded',
    { ...running, succeeded: 3 },
    { ...running, succeeded: 2 },
    [],
    { ...indexed, parallelism: 4 },
  ],
  [
    'completedIndexes and failedIndexes apart',
    { ...running, completedIndexes: '0' },
    { ...running, completedIndexes: '0,2', failedIndexes: '1,3' },
    [],
    perIndex,
  ],
  [
    // Only the fields an update touches are checked: the old violations stay, the update goes.
    'a Complete Job without SuccessCriteriaMet and with active pods takes an unrelated change',
    { startTime: t0, completionTime: t1, active: 2, conditions: [cond('Complete')] },
    { startTime: t0, completionTime: t1, active: 2, conditions: [cond('Complete')], failed: 1 },
    [],
  ],
  [
    'completedIndexes beyond completions after a scale-down stay while unchanged',
    { ...running, completedIndexes: '0-5' },
    { ...running, completedIndexes: '0-5', active: 2 },
    [],
    indexed,
  ],
  [
    'a Suspended Job with completions=0 finishes without startTime',
    {},
    { completionTime: t1, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] },
    [],
    { ...nonIndexed, completions: 0, suspend: true },
  ],
  [
    'a resumed Job gets a new startTime',
    { startTime: t0, conditions: [cond('Suspended')] },
    { startTime: t1, conditions: [cond('Suspended', 'False')] },
    [],
  ],
  ['a suspended Job may clear its startTime', running, { active: 0 }, [], { ...nonIndexed, suspend: true }],
];

const refused: Case[] = [
  [
    'Complete without SuccessCriteriaMet',
    running,
    { startTime: t0, completionTime: t1, succeeded: 1, conditions: [cond('Complete')] },
    [conditions('cannot set Complete=True condition without the SuccessCriteriaMet=true condition')],
  ],
  [
    'Failed without FailureTarget',
    running,
    { startTime: t0, failed: 1, conditions: [cond('Failed')] },
    [conditions('cannot set Failed=True condition without the FailureTarget=true condition')],
  ],
  [
    'Complete and Failed together',
    met,
    {
      ...complete,
      conditions: [cond('SuccessCriteriaMet'), cond('Complete'), cond('FailureTarget'), cond('Failed')],
    },
    [
      conditions('cannot set Complete=True and Failed=true conditions'),
      conditions('cannot set Complete=True and FailureTarget=true conditions'),
      conditions('cannot set SuccessCriteriaMet=True and Failed=true conditions'),
      conditions('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'),
    ],
  ],
  [
    'Complete without completionTime',
    met,
    { ...met, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] },
    ['status.completionTime: Required value: completionTime is required for Complete jobs'],
  ],
  [
    'completionTime on a Job not Complete',
    running,
    { ...running, completionTime: t1 },
    [
      'status.completionTime: Invalid value: "2026-01-01T00:01:00Z": cannot set completionTime when there is no Complete=True condition',
    ],
  ],
  [
    'completionTime before startTime',
    { ...met, startTime: t2 },
    { ...complete, startTime: t2 },
    [
      'status.completionTime: Invalid value: "2026-01-01T00:01:00Z": completionTime cannot be set before startTime',
    ],
  ],
  [
    'a changed completionTime',
    complete,
    { ...complete, completionTime: t2 },
    ['status.completionTime: Invalid value: "2026-01-01T00:02:00Z": completionTime cannot be mutated'],
  ],
  [
    'a finished Job with active, terminating and uncounted pods and no startTime',
    met,
    {
      completionTime: t1,
      succeeded: 1,
      active: 2,
      ready: 1,
      terminating: 1,
      uncountedTerminatedPods: { succeeded: ['a'] },
      conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
    },
    [
      'status.active: Invalid value: 2: active>0 is invalid for finished job',
      'status.startTime: Required value: startTime is required for finished job',
      'status.uncountedTerminatedPods: Invalid value: {"Succeeded":["a"],"Failed":null}: uncountedTerminatedPods needs to be empty for finished job',
      'status.terminating: Invalid value: 1: terminating>0 is invalid for finished job',
      'status.startTime: Required value: startTime cannot be removed for unsuspended job',
    ],
  ],
  [
    'disabling the terminal conditions',
    failed,
    { ...failed, conditions: [] },
    [
      conditions('cannot disable the terminal Failed=True condition'),
      conditions('cannot disable the terminal FailureTarget=True condition'),
    ],
  ],
  [
    'disabling Complete and SuccessCriteriaMet, and lowering the counters',
    { ...complete, failed: 2 },
    { startTime: t0, succeeded: 0, failed: 1 },
    [
      conditions('cannot disable the terminal Complete=True condition'),
      'status.failed: Invalid value: 1: cannot decrease the failed counter',
      'status.succeeded: Invalid value: 0: cannot decrease the succeeded counter',
      conditions('cannot disable the SuccessCriteriaMet=True condition'),
    ],
  ],
  [
    'SuccessCriteriaMet added to a Job already Complete without it',
    { startTime: t0, completionTime: t1, conditions: [cond('Complete')] },
    { startTime: t0, completionTime: t1, conditions: [cond('Complete'), cond('SuccessCriteriaMet')] },
    [conditions('cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions')],
  ],
  [
    'changing startTime while not suspended',
    running,
    { ...running, startTime: t1 },
    ['status.startTime: Required value: startTime cannot be removed for unsuspended job'],
  ],
  [
    'more ready pods than active',
    running,
    { ...running, ready: 2 },
    ['status.ready: Invalid value: 2: cannot set more ready pods than active'],
  ],
  [
    'completedIndexes not a valid list within completions',
    running,
    { ...running, completedIndexes: '1,0' },
    [
      'status.completedIndexes: Invalid value: "1,0": error parsing completedIndexes: non-increasing order, previous: 1, current: 0',
    ],
    indexed,
  ],
  [
    'failedIndexes beyond completions, and overlapping completedIndexes',
    running,
    { ...running, completedIndexes: '0-2', failedIndexes: '2,4' },
    [
      'status.failedIndexes: Invalid value: "2,4": error parsing failedIndexes: too large index: "4"',
      'status.failedIndexes: Invalid value: "2,4": failedIndexes and completedIndexes overlap at index: 2',
    ],
    perIndex,
  ],
  [
    'completedIndexes on a NonIndexed Job, failedIndexes without backoffLimitPerIndex',
    running,
    { ...running, completedIndexes: '0', failedIndexes: '' },
    [
      'status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode',
      'status.failedIndexes: Invalid value: "": cannot set non-null failedIndexes when backoffLimitPerIndex is null',
    ],
  ],
  [
    'Complete without SuccessCriteriaMet on a Job with a successPolicy',
    { startTime: t0, completionTime: t1, conditions: [cond('Complete')] },
    { startTime: t0, completionTime: t1, conditions: [cond('Complete')], succeeded: 1 },
    [conditions('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True')],
    { ...indexed, successPolicy: { rules: [{ succeededCount: 1 }] } },
  ],
  [
    'negative counters and empty or repeated uncounted UIDs',
    running,
    {
      startTime: t0,
      active: -1,
      uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] },
    },
    [
      'status.active: Invalid value: -1: must be greater than or equal to 0',
      'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
    ],
  ],
];

describe('job status update validation (kube 1.33, JobManagedBy on)', () => {
  for (const [name, from, to, expected, spec] of accepted)
    it(`accepts ${name}`, () => {
      assert.deepEqual(errorsOf(from, to, spec), expected);
    });
  for (const [name, from, to, expected, spec] of refused)
    it(`refuses ${name}`, () => {
      assert.deepEqual(errorsOf(from, to, spec), expected);
    });
});
