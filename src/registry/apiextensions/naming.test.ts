// kube's naming controller cases (naming_controller_test.go's TestSync, and more): what a CRD accepts
// of the names it asks for given those its group holds, with kube's reasons and messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from '../../api/apiextensions/v1/crd.js';
import {
  acceptNames,
  calculateNamesAndConditions,
  establish,
  namesInUse,
  waitingForNames,
  waitingToBeEstablished,
} from './naming.js';

const group = 'stable.example.com';

function crd(
  names: CustomResourceDefinitionNames,
  status: { accepted?: CustomResourceDefinitionNames; conditions?: CustomResourceDefinitionCondition[] } = {},
  inGroup = group,
): CustomResourceDefinition {
  return {
    metadata: { name: `${names.plural}.${inGroup}` },
    spec: { group: inGroup, scope: 'Namespaced', names, versions: [] },
    status: {
      ...(status.accepted === undefined ? {} : { acceptedNames: status.accepted }),
      ...(status.conditions === undefined ? {} : { conditions: status.conditions }),
    },
  };
}

const names = (
  plural: string,
  kind: string,
  more: Partial<CustomResourceDefinitionNames> = {},
): CustomResourceDefinitionNames => ({
  plural,
  singular: plural.replace(/s$/, ''),
  kind,
  listKind: `${kind}List`,
  ...more,
});

const accepted = (
  reason = 'NoConflicts',
  message = 'no conflicts found',
): CustomResourceDefinitionCondition =>
  reason === 'NoConflicts'
    ? { type: 'NamesAccepted', status: 'True', reason, message }
    : { type: 'NamesAccepted', status: 'False', reason, message };
const notAccepted: CustomResourceDefinitionCondition = {
  type: 'Established',
  status: 'False',
  reason: 'NotAccepted',
  message: 'not all names are accepted',
};
const initial: CustomResourceDefinitionCondition = {
  type: 'Established',
  status: 'True',
  reason: 'InitialNamesAccepted',
  message: 'the initial names have been accepted',
};

const statusOf = (c: CustomResourceDefinition): NonNullable<CustomResourceDefinition['status']> =>
  c.status ?? {};

const alfa = names('alfas', 'Alfa', { shortNames: ['alf'], categories: ['all'] });
/** A CRD of the group that holds alfa's names. */
const holder = crd(alfa, { accepted: alfa });

interface Case {
  readonly name: string;
  readonly in: CustomResourceDefinition;
  readonly existing: readonly CustomResourceDefinition[];
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: CustomResourceDefinitionCondition;
  readonly established: CustomResourceDefinitionCondition;
}

const cases: readonly Case[] = [
  {
    name: 'no other CRD: every name accepted',
    in: crd(names('bravos', 'Bravo', { shortNames: ['br'], categories: ['all'] })),
    existing: [],
    acceptedNames: names('bravos', 'Bravo', { shortNames: ['br'], categories: ['all'] }),
    namesAccepted: accepted(),
    established: initial,
  },
  {
    name: 'the same names in another group do not conflict',
    in: crd(alfa),
    existing: [crd(alfa, { accepted: alfa }, 'other.example.com')],
    acceptedNames: alfa,
    namesAccepted: accepted(),
    established: initial,
  },
  {
    name: 'plural taken as a short name',
    in: crd(names('alf', 'Charlie', { singular: 'charlie' })),
    existing: [holder],
    acceptedNames: { plural: '', singular: 'charlie', kind: 'Charlie', listKind: 'CharlieList' },
    namesAccepted: accepted('PluralConflict', '"alf" is already in use'),
    established: notAccepted,
  },
  {
    name: 'singular taken as a plural',
    in: crd(names('deltas', 'Delta', { singular: 'alfas' })),
    existing: [holder],
    acceptedNames: { plural: 'deltas', kind: 'Delta', listKind: 'DeltaList' },
    namesAccepted: accepted('SingularConflict', '"alfas" is already in use'),
    established: notAccepted,
  },
  {
    name: 'short names taken: all of them named, none accepted',
    in: crd(names('echos', 'Echo', { shortNames: ['alf', 'ec', 'alfa'] })),
    existing: [holder],
    acceptedNames: { plural: 'echos', singular: 'echo', kind: 'Echo', listKind: 'EchoList' },
    namesAccepted: accepted('ShortNamesConflict', '["alf" is already in use, "alfa" is already in use]'),
    established: notAccepted,
  },
  {
    name: 'kind taken',
    in: crd(names('foxtrots', 'Alfa', { listKind: 'FoxtrotList' })),
    existing: [holder],
    acceptedNames: { plural: 'foxtrots', singular: 'foxtrot', kind: '', listKind: 'FoxtrotList' },
    namesAccepted: accepted('KindConflict', '"Alfa" is already in use'),
    established: notAccepted,
  },
  {
    name: 'list kind taken as a kind',
    in: crd(names('golfs', 'Golf', { listKind: 'Alfa' })),
    existing: [holder],
    acceptedNames: { plural: 'golfs', singular: 'golf', kind: 'Golf' },
    namesAccepted: accepted('ListKindConflict', '"Alfa" is already in use'),
    established: notAccepted,
  },
  {
    name: 'several conflicts: the last one found is the reason',
    in: crd(names('alf', 'Alfa', { singular: 'alfa' })),
    existing: [holder],
    acceptedNames: { plural: '', kind: '' },
    namesAccepted: accepted('ListKindConflict', '"AlfaList" is already in use'),
    established: notAccepted,
  },
  {
    name: 'names of a CRD still waiting for some are held too',
    in: crd(names('hotels', 'Hotel', { shortNames: ['alf'] })),
    existing: [crd(names('alf', 'India'), { accepted: { plural: '', singular: 'alf', kind: 'India' } })],
    acceptedNames: { plural: 'hotels', singular: 'hotel', kind: 'Hotel', listKind: 'HotelList' },
    namesAccepted: accepted('ShortNamesConflict', '"alf" is already in use'),
    established: notAccepted,
  },
  {
    name: 'an established CRD keeps its accepted names and Established when new ones conflict',
    in: crd(names('julietts', 'Juliett', { shortNames: ['jl', 'alf'] }), {
      accepted: names('julietts', 'Juliett', { shortNames: ['jl'] }),
      conditions: [accepted(), initial],
    }),
    existing: [holder],
    acceptedNames: names('julietts', 'Juliett', { shortNames: ['jl'] }),
    namesAccepted: accepted('ShortNamesConflict', '"alf" is already in use'),
    established: initial,
  },
  {
    name: 'its own accepted names are no conflict, a new category is taken as it is',
    in: crd(names('kilos', 'Kilo', { shortNames: ['kl'], categories: ['all', 'mine'] }), {
      accepted: names('kilos', 'Kilo', { shortNames: ['kl'] }),
    }),
    existing: [crd(names('kilos', 'Kilo', { shortNames: ['kl'] }), { accepted: names('kilos', 'Kilo') })],
    acceptedNames: names('kilos', 'Kilo', { shortNames: ['kl'], categories: ['all', 'mine'] }),
    namesAccepted: accepted(),
    established: initial,
  },
];

describe('CRD names (kube naming controller)', () => {
  for (const c of cases)
    it(c.name, () => {
      const out = calculateNamesAndConditions(c.in, namesInUse([...c.existing, c.in], group));
      assert.deepEqual(out.acceptedNames, c.acceptedNames);
      assert.deepEqual(out.namesAccepted, c.namesAccepted);
      assert.deepEqual(out.established, c.established);
    });

  it('writes the status only when the names or NamesAccepted change', () => {
    const waiting = crd(names('alf', 'Lima', { singular: 'lima' }));
    const inUse = namesInUse([holder], group);
    assert.equal(waitingForNames(waiting), true);
    assert.equal(acceptNames(waiting, inUse, '2026-01-01T00:00:00Z'), true);
    assert.deepEqual(
      waiting.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime]),
      [
        ['NamesAccepted', 'False', 'PluralConflict', '2026-01-01T00:00:00Z'],
        ['Established', 'False', 'NotAccepted', '2026-01-01T00:00:00Z'],
      ],
    );
    // The same group again: nothing to write.
    assert.equal(acceptNames(waiting, inUse, '2026-01-01T00:00:05Z'), false);
    // The holder gone: accepted, Established at once.
    assert.equal(acceptNames(waiting, namesInUse([], group), '2026-01-01T00:00:09Z'), true);
    assert.deepEqual(statusOf(waiting).acceptedNames, waiting.spec.names);
    assert.deepEqual(
      (statusOf(waiting).conditions ?? []).map((c) => [c.type, c.status, c.reason, c.lastTransitionTime]),
      [
        ['NamesAccepted', 'True', 'NoConflicts', '2026-01-01T00:00:09Z'],
        ['Established', 'True', 'InitialNamesAccepted', '2026-01-01T00:00:09Z'],
      ],
    );
    assert.equal(waitingForNames(waiting), false);
    // Serving all it asks for: kube skips the sync whatever the group holds.
    assert.equal(acceptNames(waiting, inUse, '2026-01-01T00:00:10Z'), false);
  });

  it('establishes a CRD with accepted names once its conversion caBundle loads', () => {
    const webhook = (caBundle: string): NonNullable<CustomResourceDefinition['spec']['conversion']> => ({
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://h/c', caBundle } },
    });
    const bad = crd(names('mikes', 'Mike'));
    bad.spec.conversion = webhook(Buffer.from('junk').toString('base64'));
    assert.equal(acceptNames(bad, namesInUse([], group), '2026-01-01T00:00:00Z'), true);
    assert.deepEqual(
      (statusOf(bad).conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
        ['Established', 'False', 'InvalidCABundle', 'The conversion webhook CABundle is invalid'],
      ],
    );
    assert.equal(waitingToBeEstablished(bad), true);
    assert.equal(establish(bad, '2026-01-01T00:00:01Z'), false);
    bad.spec.conversion = webhook('');
    assert.equal(establish(bad, '2026-01-01T00:00:02Z'), true);
    assert.deepEqual(
      (statusOf(bad).conditions ?? []).map((c) => [c.type, c.status, c.reason, c.lastTransitionTime]),
      [
        ['NamesAccepted', 'True', 'NoConflicts', '2026-01-01T00:00:00Z'],
        ['Established', 'True', 'InitialNamesAccepted', '2026-01-01T00:00:02Z'],
      ],
    );
    assert.equal(waitingToBeEstablished(bad), false);
  });
});
