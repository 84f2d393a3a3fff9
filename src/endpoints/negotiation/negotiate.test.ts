import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStatusError } from '../../machinery/errors/index.js';
import { parseAccept } from './accept.js';
import { textBodySerializers } from './media-types.js';
import {
  defaultEndpointRestrictions,
  negotiateInputSerializer,
  negotiateMediaTypeOptions,
  negotiateOutputMediaType,
  negotiateOutputMediaTypeStream,
  type EndpointRestrictions,
} from './negotiate.js';

// An endpoint with a table convertor, as the installer builds for configmaps.
const withTables: EndpointRestrictions = {
  allowsMediaTypeTransform: (type, subType, t) =>
    t === null ||
    (t.group === 'meta.k8s.io' &&
      (t.version === 'v1' || t.version === 'v1beta1') &&
      (t.kind === 'PartialObjectMetadata' ||
        t.kind === 'PartialObjectMetadataList' ||
        (t.kind === 'Table' && type === 'application' && (subType === 'json' || subType === 'yaml')))),
  allowsServerVersion: (v) => v === 'v1',
  allowsStreamSchema: (s) => s === 'watch',
};

const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const cases: readonly {
  accept: string | undefined;
  media?: string;
  convert?: string | null;
  pretty?: boolean;
}[] = [
  { accept: undefined, media: 'application/json', convert: null },
  { accept: '', media: 'application/json', convert: null },
  { accept: '*/*', media: 'application/json', convert: null },
  { accept: 'application/*', media: 'application/json', convert: null },
  { accept: 'application/json', media: 'application/json', convert: null },
  { accept: 'application/yaml', media: 'application/yaml', convert: null },
  {
    accept: 'application/vnd.kubernetes.protobuf,application/json',
    media: 'application/json',
    convert: null,
  },
  { accept: 'application/vnd.kubernetes.protobuf, */*', media: 'application/json', convert: null },
  { accept: 'application/vnd.kubernetes.protobuf' },
  { accept: 'text/html' },
  { accept: 'text/*' },
  {
    accept: `${table},application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`,
    media: 'application/json',
    convert: 'meta.k8s.io/v1/Table',
  },
  {
    accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
    media: 'application/json',
    convert: 'meta.k8s.io/v1beta1/Table',
  },
  {
    accept: 'application/yaml;as=Table;v=v1;g=meta.k8s.io',
    media: 'application/yaml',
    convert: 'meta.k8s.io/v1/Table',
  },
  {
    accept: 'application/json;as=Table;v=v2;g=meta.k8s.io,application/json',
    media: 'application/json',
    convert: null,
  },
  { accept: 'application/json;as=Foo;v=v1;g=meta.k8s.io' },
  {
    accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
    media: 'application/json',
    convert: 'meta.k8s.io/v1/PartialObjectMetadataList',
  },
  {
    accept:
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    media: 'application/json',
    convert: 'meta.k8s.io/v1/PartialObjectMetadata',
  },
  { accept: 'application/json;q=0.5, application/yaml', media: 'application/yaml', convert: null },
  { accept: 'application/json;pretty=1', media: 'application/json', convert: null, pretty: true },
  { accept: 'application/json;stream=watch', media: 'application/json', convert: null },
  { accept: 'application/json;stream=other' },
  { accept: 'application/json;sv=v1', media: 'application/json', convert: null },
  { accept: 'application/json;sv=v2' },
];

for (const c of cases) {
  test(`Accept ${JSON.stringify(c.accept)}`, () => {
    const got = negotiateMediaTypeOptions(c.accept, withTables);
    if (c.media === undefined) {
      assert.equal(got, undefined);
      return;
    }
    assert.ok(got !== undefined);
    assert.equal(got.accepted.mediaType, c.media);
    const convert =
      got.convert === null ? null : `${got.convert.group}/${got.convert.version}/${got.convert.kind}`;
    assert.equal(convert, c.convert);
    assert.equal(got.pretty, c.pretty ?? false);
  });
}

test('a Table is not acceptable where there is no table convertor', () => {
  assert.equal(negotiateMediaTypeOptions(table, defaultEndpointRestrictions), undefined);
  assert.equal(
    negotiateMediaTypeOptions(`${table},application/json`, defaultEndpointRestrictions)?.convert,
    null,
  );
});

function statusOf(fn: () => unknown): { code: number; reason: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, reason: err.reason, message: err.status.message ?? '' };
    throw err;
  }
  assert.fail('expected a Status error');
}

test('406 and 415 carry kube messages', () => {
  assert.deepEqual(
    statusOf(() => negotiateOutputMediaType('application/vnd.kubernetes.protobuf', withTables)),
    {
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    },
  );
  assert.deepEqual(
    statusOf(() => negotiateOutputMediaTypeStream('application/yaml', withTables)),
    {
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json;stream=watch',
    },
  );
  assert.deepEqual(
    statusOf(() => negotiateInputSerializer('text/plain')),
    {
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    },
  );
  // Kinds without protobuf tables (custom resources) accept JSON and YAML only.
  assert.deepEqual(
    statusOf(() => negotiateInputSerializer('application/vnd.kubernetes.protobuf', textBodySerializers)),
    {
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    },
  );
});

test('request bodies: no Content-Type is JSON, parameters are ignored', () => {
  assert.equal(negotiateInputSerializer(undefined).mediaType, 'application/json');
  assert.equal(
    negotiateInputSerializer('application/vnd.kubernetes.protobuf').mediaType,
    'application/vnd.kubernetes.protobuf',
  );
  assert.equal(negotiateInputSerializer('application/json; charset=utf-8').mediaType, 'application/json');
  assert.equal(negotiateInputSerializer('Application/YAML').mediaType, 'application/yaml');
});

test('Accept clauses sort by quality, then concrete before wildcard', () => {
  const order = parseAccept('*/*;q=0.8, text/*, application/json;q=0.9, application/yaml').map(
    (c) => `${c.type}/${c.subType}`,
  );
  // Go's insertion sort with goautoneg's (non-transitive) Less gives this order.
  assert.deepEqual(order, ['application/yaml', 'application/json', 'text/*', '*/*']);
  assert.deepEqual(
    parseAccept('bad, a/b/c, */*').map((c) => `${c.type}/${c.subType}`),
    ['*/*'],
  );
});
