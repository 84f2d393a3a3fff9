// GET, LIST, WATCH and DELETE requests with generated query strings, headers and delete options.
import fc from 'fast-check';
import { poolName, type Aim } from './bodies.js';
import { collectionOf } from './kinds.js';
import type { BadRequest } from './server.js';
import { oddValue } from './values.js';

const selectorText = fc
  .array(
    fc.constantFrom('a', 'b', '=', '==', '!=', '!', ',', ' in ', ' notin ', '(', ')', 'x/y', 'metadata.name', 'spec.nodeName',
      'status.phase', '~', '\\', '%', '.', '-', ' ', 'metadata.namespace', 'a'.repeat(70), '\u00e9', '\u0000'),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const continueToken = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc
    .record({ v: fc.constantFrom('meta.k8s.io/v1', 'x', ''), rv: fc.oneof(fc.integer({ max: 3 }), fc.constant('1'), fc.constant(null)), start: fc.constantFrom('', '../', '\u0000', 'g1') }, { requiredKeys: [] })
    .map((o) => Buffer.from(JSON.stringify(o)).toString('base64url')),
  fc.constantFrom('eyJ9', '%%%', 'AAAA'),
);

const numberText = fc.oneof(
  fc.constantFrom('', '-1', '0', '1', '-5', 'x', '1.5', '1e3', '99999999999999999999', ' 1', '0x10', '+1', '-0', 'NaN'),
  fc.integer().map(String),
);

// Revisions ahead of the store make kube (and Capstan) wait 3 s before a 504 TooLargeResourceVersion,
// which clients rely on: the generated ones are odd or behind, not ahead.
const revisionText = fc.oneof(
  fc.constantFrom('', '-1', '0', '1', '-5', 'x', '1.5', '1e3', '99999999999999999999', ' 1', '0x10', '+1', '-0', 'NaN'),
  fc.integer({ min: -1_000_000_000, max: 3 }).map(String),
);

const param = fc.oneof(
  revisionText.map((v) => ['resourceVersion', v]),
  fc.constantFrom('Exact', 'NotOlderThan', 'bogus', '').map((v) => ['resourceVersionMatch', v]),
  numberText.map((v) => ['limit', v]),
  continueToken.map((v) => ['continue', v]),
  selectorText.map((v) => ['labelSelector', v]),
  selectorText.map((v) => ['fieldSelector', v]),
  fc.constantFrom('All', 'bogus', '').map((v) => ['dryRun', v]),
  fc.constantFrom('m', '', 'm'.repeat(200), '\u0001').map((v) => ['fieldManager', v]),
  fc.constantFrom('Strict', 'Warn', 'Ignore', 'bogus', '').map((v) => ['fieldValidation', v]),
  fc.constantFrom('true', 'false', 'x', '').map((v) => ['sendInitialEvents', v]),
  fc.constantFrom('true', 'false', 'x').map((v) => ['allowWatchBookmarks', v]),
  numberText.map((v) => ['timeoutSeconds', v]),
  fc.constantFrom('true', '1', 'x').map((v) => ['pretty', v]),
  fc.constantFrom('Orphan', 'Background', 'Foreground', 'bogus', '').map((v) => ['propagationPolicy', v]),
  numberText.map((v) => ['gracePeriodSeconds', v]),
  fc.constantFrom('true', 'false', 'x').map((v) => ['orphanDependents', v]),
  fc.constantFrom('None', 'Object', 'Metadata', 'x').map((v) => ['includeObject', v]),
  fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })),
);

const query = fc
  .array(param, { maxLength: 5 })
  .map((ps) => ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const accept = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  'application/json',
  'application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v9;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  'application/yaml',
  'garbage/x',
  ';;;',
  '*/*;q=x',
);

const deleteOptions = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      apiVersion: fc.constantFrom('v1', 'meta.k8s.io/v1', 'x'),
      kind: fc.constantFrom('DeleteOptions', 'Pod', ''),
      gracePeriodSeconds: oddValue,
      propagationPolicy: oddValue,
      preconditions: fc.oneof(oddValue, fc.record({ uid: oddValue, resourceVersion: oddValue }, { requiredKeys: [] })),
      dryRun: oddValue,
      orphanDependents: oddValue,
    },
    { requiredKeys: [] },
  ).map((o) => JSON.stringify(o)),
  fc.constantFrom('{', '[]', 'null', '{"gracePeriodSeconds":1e400}'),
);

/** GET of an object or the collection, LIST across namespaces, WATCH, DELETE, DELETE collection. */
export function queryRequest(aim: Aim): fc.Arbitrary<BadRequest> {
  const collection = collectionOf(aim.target);
  const verb = fc.constantFrom('get', 'list', 'list-all', 'watch', 'delete', 'deletecollection');
  return fc.tuple(verb, query, accept, fc.oneof(poolName, fc.constant('fx')), deleteOptions, fc.nat(3)).map(
    ([v, q, a, name, opts, w]) => {
      const headers: Record<string, string> = a === undefined ? {} : { accept: a };
      const base = { headers, label: `${aim.target.kind} ${v}` };
      switch (v) {
        case 'get':
          return { ...base, method: 'GET', path: `${collection}/${name}`, query: q };
        case 'list':
          return { ...base, method: 'GET', path: collection, query: q };
        case 'list-all':
          return { ...base, method: 'GET', path: aim.target.collection, query: q };
        case 'watch':
          return { ...base, method: 'GET', path: w === 0 ? aim.target.collection : collection, query: `watch=${w === 1 ? 'true' : '1'}${q === '' ? '' : `&${q}`}`, watch: true };
        case 'delete':
        case 'deletecollection': {
          // The fixture and the collection go only in a dry run: later requests still need them.
          const dry = name === 'fx' || v === 'deletecollection' ? 'dryRun=All' : '';
          const path = v === 'delete' ? `${collection}/${name}` : collection;
          return {
            ...base,
            method: 'DELETE',
            path,
            query: [q, dry].filter((s) => s !== '').join('&'),
            headers: { ...headers, 'content-type': 'application/json' },
            ...(opts === undefined ? {} : { body: opts }),
          };
        }
      }
    },
  );
}
