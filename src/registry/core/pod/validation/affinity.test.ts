import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Affinity, PodAffinityTerm } from '../../../../api/core/v1/affinity.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { labelValueMsg } from '../../../../machinery/validation/testing/kube-messages.js';
import { mergeAffinityLabelKeys, validateAffinity } from './affinity.js';

const check = (affinity: Affinity): string[] =>
  validateAffinity(affinity, FieldPath.of('spec', 'affinity')).map((e) => e.toString());

const term = (extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm => ({
  labelSelector: { matchLabels: { app: 'web' } },
  topologyKey: 'kubernetes.io/hostname',
  ...extra,
});

describe('validateAffinity', () => {
  it('takes well-formed node and pod (anti-)affinity', () => {
    assert.deepEqual(
      check({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
          ],
        },
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['team-a'] })] },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, podAffinityTerm: term({ matchLabelKeys: ['rev'], mismatchLabelKeys: ['tenant'] }) },
          ],
        },
      }),
      [],
    );
  });

  it("refuses what kube refuses, with kube's paths and messages", () => {
    assert.deepEqual(
      check({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'In' }] } },
          ],
        },
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'web' } }, namespaces: ['Bad_NS'] },
          ],
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: term() }],
        },
      }),
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100',
      ],
    );
  });

  it('checks matchLabelKeys and mismatchLabelKeys against the selector the create merged them into', () => {
    assert.deepEqual(
      check({
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'zone', matchLabelKeys: ['rev'] },
            term({
              labelSelector: {
                matchLabels: { rev: '1' },
                matchExpressions: [{ key: 'rev', operator: 'In', values: ['2'] }],
              },
              matchLabelKeys: ['rev'],
              mismatchLabelKeys: ['rev'],
            }),
          ],
        },
      }),
      [
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1][0]: Invalid value: "rev": exists in both matchLabelKeys and labelSelector',
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].matchLabelKeys[0]: Invalid value: "rev": exists in both matchLabelKeys and mismatchLabelKeys',
      ],
    );
  });

  it('checks the values of its label and namespace selectors as label values', () => {
    assert.deepEqual(
      check({
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term({
              labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web app'] }] },
              namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['-a'] }] },
            }),
          ],
        },
      }),
      [
        `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]: Invalid value: "web app": ${labelValueMsg}`,
        `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector.matchExpressions[0].values[0]: Invalid value: "-a": ${labelValueMsg}`,
      ],
    );
  });
});

describe('mergeAffinityLabelKeys', () => {
  it("adds the pod's values of matchLabelKeys (In) and mismatchLabelKeys (NotIn) to terms with a selector", () => {
    const affinity: Affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [term({ matchLabelKeys: ['rev', 'absent'] })],
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 5, podAffinityTerm: term({ mismatchLabelKeys: ['tenant'] }) },
          { weight: 5, podAffinityTerm: { topologyKey: 'zone', matchLabelKeys: ['rev'] } },
        ],
      },
    };
    mergeAffinityLabelKeys(affinity, { rev: '7', tenant: 'acme' });
    assert.deepEqual(
      affinity.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector,
      {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'rev', operator: 'In', values: ['7'] }],
      },
    );
    const preferred = affinity.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    assert.deepEqual(preferred[0]?.podAffinityTerm?.labelSelector?.matchExpressions, [
      { key: 'tenant', operator: 'NotIn', values: ['acme'] },
    ]);
    // A term without a selector selects nothing, with the keys or without.
    assert.equal(preferred[1]?.podAffinityTerm?.labelSelector, undefined);
  });
});
