import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobSpec, PodFailurePolicyRule } from '../../../api/batch/v1/job.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { namePartMsg, subdomainMsg } from '../../../machinery/validation/testing/kube-messages.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import { generateSelector, setJobDefaults, setJobSpecDefaults } from './defaults.js';
import { validateJob, validateJobSpecCommon, validateJobUpdate } from './validation.js';

const template = (): PodTemplateSpec => ({
  spec: {
    restartPolicy: 'Never',
    initContainers: [{ name: 'setup', image: 'busybox' }],
    containers: [{ name: 'main', image: 'busybox' }],
  },
});

const indexed = (completions = 4): JobSpec => ({
  completionMode: 'Indexed',
  completions,
  parallelism: completions,
});

/** The errors of a spec after the batch/v1 defaults (or the pod's only), as kube renders each one. */
const errorsOf = (spec: JobSpec, defaults = true): string[] => {
  const full: JobSpec = { ...spec, template: template() };
  if (defaults) setJobSpecDefaults(full);
  else setPodTemplateSpecDefaults(full.template ?? {});
  return validateJobSpecCommon(full, FieldPath.of('spec')).map((e) => e.error());
};

const exitRule = (values: number[], extra: Partial<PodFailurePolicyRule> = {}): PodFailurePolicyRule => ({
  action: 'FailJob',
  onExitCodes: { operator: 'In', values },
  ...extra,
});
const pfp = (...rules: PodFailurePolicyRule[]): Pick<JobSpec, 'podFailurePolicy'> => ({
  podFailurePolicy: { rules },
});
const conditionRule: PodFailurePolicyRule = {
  action: 'Ignore',
  onPodConditions: [{ type: 'DisruptionTarget' }],
};
const highCompletions = 'when completions are above 100000 and used with backoff limit per index';
const actionValues = 'valid values: ["Count" "FailIndex" "FailJob" "Ignore"]';
const evenIndexes = Array.from({ length: 50000 }, (_, i) => String(2 * i)).join(',');

const invalid: [name: string, spec: JobSpec, expected: string[], defaults?: boolean][] = [
  // maxFailedIndexes and the limits of an Indexed Job.
  [
    'maxFailedIndexes above completions',
    { ...indexed(4), backoffLimitPerIndex: 1, maxFailedIndexes: 5 },
    ['spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions'],
  ],
  [
    'maxFailedIndexes above 100000, with completions above 100000',
    { ...indexed(200000), parallelism: 100, backoffLimitPerIndex: 1, maxFailedIndexes: 100001 },
    [
      'spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000',
      `spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 10000 ${highCompletions}`,
    ],
  ],
  [
    'completions above 100000 with backoffLimitPerIndex: maxFailedIndexes required, parallelism limited',
    { ...indexed(100001), parallelism: 10001, backoffLimitPerIndex: 1 },
    [
      'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
      `spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 ${highCompletions}`,
    ],
  ],
  [
    'backoffLimitPerIndex and maxFailedIndexes on a NonIndexed Job',
    { backoffLimitPerIndex: 1, maxFailedIndexes: 1 },
    [
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ],
  ],
  [
    'backoffLimitPerIndex without a completionMode (a CronJob job template)',
    { backoffLimitPerIndex: 0 },
    ['spec.backoffLimitPerIndex: Invalid value: 0: requires indexed completion mode'],
    false,
  ],
  // managedBy.
  [
    'managedBy without a domain',
    { managedBy: 'controller' },
    ['spec.managedBy: Invalid value: "controller": must be a domain-prefixed path (such as "acme.io/foo")'],
  ],
  [
    'managedBy with a bad domain',
    { managedBy: 'Acme.io/foo' },
    [`spec.managedBy: Invalid value: "Acme.io": ${subdomainMsg}`],
  ],
  ['an empty managedBy', { managedBy: '' }, ['spec.managedBy: Required value']],
  [
    'managedBy with a bad path',
    { managedBy: 'acme.io/foo bar' },
    [
      `spec.managedBy: Invalid value: "foo bar": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
    ],
  ],
  [
    'managedBy longer than 63 characters',
    { managedBy: `acme.io/${'x'.repeat(56)}` },
    ['spec.managedBy: Too long: may not be more than 63 bytes'],
  ],
  // podFailurePolicy rules.
  [
    'more than 20 rules',
    pfp(...Array.from({ length: 21 }, () => conditionRule)),
    ['spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items'],
  ],
  [
    'a rule without an action',
    pfp(exitRule([1], { action: '' })),
    [`spec.podFailurePolicy.rules[0].action: Required value: ${actionValues}`],
  ],
  [
    'FailIndex without backoffLimitPerIndex',
    pfp(exitRule([1], { action: 'FailIndex' })),
    [
      'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    ],
  ],
  [
    'an unknown action',
    pfp(exitRule([1], { action: 'Retry' })),
    [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
    ],
  ],
  [
    'onExitCodes without an operator, then with an unknown one',
    pfp(
      { action: 'Count', onExitCodes: { operator: '', values: [1] } },
      { action: 'Count', onExitCodes: { operator: 'Exists', values: [1] } },
    ),
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]',
      'spec.podFailurePolicy.rules[1].onExitCodes.operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
    ],
  ],
  [
    'onExitCodes naming a container the template does not have',
    pfp(exitRule([1], { onExitCodes: { containerName: 'sidecar', operator: 'In', values: [1] } })),
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "sidecar": must be one of the container or initContainer names in the pod template',
    ],
  ],
  [
    'onExitCodes with no values',
    pfp(exitRule([])),
    ['spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required'],
  ],
  [
    'onExitCodes with more than 255 values',
    pfp(exitRule(Array.from({ length: 256 }, (_, i) => i + 1))),
    ['spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items'],
  ],
  [
    'exit code 0 for In, a duplicate, out of order',
    pfp(exitRule([0, 2, 1, 2])),
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[3]: Duplicate value: 2',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,2,1,2]: must be ordered',
    ],
  ],
  [
    'more than 20 pod condition patterns',
    pfp({
      action: 'Ignore',
      onPodConditions: Array.from({ length: 21 }, () => ({ type: 'DisruptionTarget' })),
    }),
    ['spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items'],
  ],
  [
    'a pattern type that is not a qualified name, an unknown status',
    pfp({ action: 'Ignore', onPodConditions: [{ type: 'Disruption Target', status: 'Maybe' }] }),
    [
      `spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "Disruption Target": ${namePartMsg}`,
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ],
  ],
  [
    'a pattern without a status, before defaulting',
    pfp({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }),
    [
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]',
    ],
    false,
  ],
  [
    'a rule with both requirements, and one with neither',
    pfp(exitRule([1], { onPodConditions: [{ type: 'DisruptionTarget' }] }), { action: 'Count' }),
    [
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ],
  ],
  // successPolicy.
  [
    'a successPolicy on a NonIndexed Job',
    { successPolicy: { rules: [{ succeededIndexes: '0' }] } },
    [
      'spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":null}]}: requires indexed completion mode',
    ],
  ],
  [
    'a successPolicy without rules',
    { ...indexed(), successPolicy: { rules: [] } },
    [
      'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
    ],
  ],
  [
    'more than 20 success rules',
    { ...indexed(), successPolicy: { rules: Array.from({ length: 21 }, () => ({ succeededCount: 1 })) } },
    ['spec.successPolicy.rules: Too many: 21: must have at most 20 items'],
  ],
  [
    'an empty success rule',
    { ...indexed(), successPolicy: { rules: [{}] } },
    [
      'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
    ],
  ],
  [
    'succeededIndexes longer than 64Ki',
    { ...indexed(100000), parallelism: 1, successPolicy: { rules: [{ succeededIndexes: evenIndexes }] } },
    ['spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes'],
  ],
  [
    'a succeededIndexes beyond completions, and a count above the indexes it lists',
    { ...indexed(4), successPolicy: { rules: [{ succeededIndexes: '1-4', succeededCount: 1 }] } },
    [
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1-4": error parsing succeededIndexes: too large index: "4"',
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 1: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)',
    ],
  ],
  [
    'a negative succeededCount, then one above completions',
    { ...indexed(4), successPolicy: { rules: [{ succeededCount: -1 }, { succeededCount: 5 }] } },
    [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: -1: must be greater than or equal to 0',
      'spec.successPolicy.rules[1].succeededCount: Invalid value: 5: must be less than or equal to 4 (the number of specified completions)',
    ],
  ],
  [
    'a succeededCount above the indexes listed',
    { ...indexed(4), successPolicy: { rules: [{ succeededIndexes: '0,2-3', succeededCount: 4 }] } },
    [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)',
    ],
  ],
  // podReplacementPolicy.
  [
    'TerminatingOrFailed with a podFailurePolicy',
    { ...pfp(exitRule([1])), podReplacementPolicy: 'TerminatingOrFailed' },
    ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'],
  ],
  [
    'an unknown podReplacementPolicy',
    { podReplacementPolicy: 'Never' },
    [
      'spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"',
    ],
  ],
  // Several at once, in kube's order.
  [
    'errors of every kind, in the order kube finds them',
    {
      managedBy: 'controller',
      backoffLimitPerIndex: 1,
      ...pfp(
        exitRule([1], {
          action: 'FailIndex',
          onExitCodes: { containerName: 'x', operator: 'In', values: [1] },
        }),
      ),
      successPolicy: { rules: [{ succeededCount: 1 }] },
      podReplacementPolicy: 'TerminatingOrFailed',
    },
    [
      'spec.managedBy: Invalid value: "controller": must be a domain-prefixed path (such as "acme.io/foo")',
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "x": must be one of the container or initContainer names in the pod template',
      'spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode',
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
    ],
  ],
];

const valid: [name: string, spec: JobSpec][] = [
  [
    'an Indexed Job with backoffLimitPerIndex, a FailIndex rule and a successPolicy',
    {
      ...indexed(4),
      parallelism: 2,
      backoffLimitPerIndex: 1,
      maxFailedIndexes: 2,
      managedBy: 'kueue.x-k8s.io/multikueue',
      ...pfp(
        { action: 'FailIndex', onExitCodes: { containerName: 'main', operator: 'In', values: [1, 42] } },
        { action: 'Count', onExitCodes: { containerName: 'setup', operator: 'NotIn', values: [0] } },
        conditionRule,
      ),
      successPolicy: { rules: [{ succeededIndexes: '0,2-3', succeededCount: 2 }, { succeededCount: 4 }] },
    },
  ],
  [
    'completions above 100000 within the limits for backoffLimitPerIndex',
    { ...indexed(200000), parallelism: 10000, backoffLimitPerIndex: 0, maxFailedIndexes: 10000 },
  ],
  ['a NonIndexed Job with a FailJob rule', { ...pfp(exitRule([3])), podReplacementPolicy: 'Failed' }],
  ['a NonIndexed Job replacing only failed pods', { podReplacementPolicy: 'Failed' }],
  ['an empty succeededIndexes', { ...indexed(4), successPolicy: { rules: [{ succeededIndexes: '' }] } }],
];

describe('job spec validation: the policies and limits of kube 1.33', () => {
  for (const [name, spec, expected, defaults] of invalid)
    it(`refuses ${name}`, () => {
      assert.deepEqual(errorsOf(spec, defaults), expected);
    });

  for (const [name, spec] of valid)
    it(`accepts ${name}`, () => {
      assert.deepEqual(errorsOf(spec), []);
    });

  it('parses succeededIndexes as kube does', () => {
    const cases: [indexes: string, error: string][] = [
      [
        '0-1-2',
        `the fragment "0-1-2" violates the requirement that an index interval can have at most two parts separated by '-'`,
      ],
      ['a', 'cannot convert string to integer for index: "a"'],
      ['1-', 'cannot convert string to integer for index: ""'],
      ['99999999999999999999', 'cannot convert string to integer for index: "99999999999999999999"'],
      ['9', 'too large index: "9"'],
      ['2-1', 'non-increasing order, previous: 2, current: 1'],
      ['1-1', 'non-increasing order, previous: 1, current: 1'],
      ['0-2,2', 'non-increasing order, previous: 2, current: 2'],
      ['3,1', 'non-increasing order, previous: 3, current: 1'],
    ];
    for (const [succeededIndexes, error] of cases)
      assert.deepEqual(errorsOf({ ...indexed(4), successPolicy: { rules: [{ succeededIndexes }] } }), [
        `spec.successPolicy.rules[0].succeededIndexes: Invalid value: ${JSON.stringify(succeededIndexes)}: error parsing succeededIndexes: ${error}`,
      ]);
    assert.deepEqual(
      errorsOf({
        ...indexed(4),
        successPolicy: { rules: [{ succeededIndexes: '+1,2-3', succeededCount: 3 }] },
      }),
      [],
    );
  });
});

describe('job update validation', () => {
  const stored = (): Job => {
    const job: Job = {
      metadata: { name: 'per-index', namespace: 'default', uid: 'u-1', resourceVersion: '1' },
      spec: { ...indexed(4), backoffLimitPerIndex: 1, maxFailedIndexes: 1, template: template() },
    };
    setJobDefaults(job);
    generateSelector(job);
    return job;
  };

  it('lets maxFailedIndexes change but keeps backoffLimitPerIndex', () => {
    const old = stored();
    const raised = structuredClone(old);
    if (raised.spec !== undefined) raised.spec.maxFailedIndexes = 3;
    assert.deepEqual(validateJobUpdate(raised, old), []);
    const changed = structuredClone(old);
    if (changed.spec !== undefined) changed.spec.backoffLimitPerIndex = 2;
    assert.deepEqual(
      validateJobUpdate(changed, old).map((e) => e.error()),
      ['spec.backoffLimitPerIndex: Invalid value: 2: field is immutable'],
    );
  });

  it('applies the new checks to the updated spec', () => {
    const old = stored();
    const above = structuredClone(old);
    if (above.spec !== undefined) above.spec.maxFailedIndexes = 5;
    assert.deepEqual(
      validateJobUpdate(above, old).map((e) => e.error()),
      ['spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions'],
    );
  });
});

describe("job validation: the hostname of an Indexed Job's last pod", () => {
  const job = (name: string, completions: number): Job => {
    const j: Job = {
      metadata: { name, namespace: 'default', uid: 'u-2' },
      spec: { ...indexed(completions), template: template() },
    };
    setJobDefaults(j);
    generateSelector(j);
    return j;
  };

  it('refuses a name whose `<name>-<completions-1>` is no DNS label, as kube', () => {
    // 60 characters: `-9` still fits the 63 of a label, `-1000` does not.
    const name = 'j'.repeat(60);
    assert.deepEqual(validateJob(job(name, 10)), []);
    assert.deepEqual(
      validateJob(job(name, 1001)).map((e) => e.error()),
      [
        `metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-1000`,
      ],
    );
  });

  it('leaves a NonIndexed Job of the same name alone', () => {
    const j = job('j'.repeat(60), 1001);
    if (j.spec !== undefined) {
      j.spec.completionMode = 'NonIndexed';
      j.spec.parallelism = 1;
    }
    assert.deepEqual(validateJob(j), []);
  });
});
