// Odd values for any position of an object, and whole bodies no decoder should choke on.
import fc from 'fast-check';

export const bodyLimit = 3 * 1024 * 1024;

/** JSON text nested `depth` levels deep (lists or objects), with a leaf at the bottom. */
export function nestedJSON(depth: number, asObject: boolean): string {
  return asObject ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** A value nested `depth` levels deep, built without recursion. */
export function nestedValue(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

const depths = fc.constantFrom(64, 1_000, 9_990, 10_001, 20_000, 100_000);
// A YAML parser takes seconds over 100,000 levels: past the limit is enough to show it is kept.
const yamlDepths = fc.constantFrom(64, 1_000, 9_990, 10_001);
// Few huge values: each costs a full parse of up to 3 MiB.
const hugeLengths = fc.constantFrom(300_000, bodyLimit - 400, bodyLimit + 1);

/** Values of every JSON type and some that JSON itself cannot say. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, '', [], {}, [null], { '': null }), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      '-0',
      '1e400',
      9007199254740992,
      '9007199254740993',
      -2147483649,
      2147483648,
      1e308,
      '0x10',
      'NaN',
      '\u0000',
      '\ud800',
      'a'.repeat(254),
      'a'.repeat(64),
      'UPPER_case',
      '-leading',
      '../..',
      '1Gi',
      '100m',
      '9999999999999999999999Ei',
      '2024-13-45T25:61:61Z',
      'TCP',
      'Always',
    ),
    weight: 6,
  },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 3 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.array(fc.constantFrom(null, 1, 'a', {}, []), { maxLength: 4 }), weight: 3 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom(null, 1, 'x', []), { maxKeys: 3 }), weight: 3 },
  { arbitrary: fc.constantFrom(64, 1_000).map(nestedValue), weight: 1 },
  { arbitrary: fc.integer({ min: 1_000, max: 5_000 }).map((n) => Array.from({ length: n }, () => 'x')), weight: 1 },
);

export const hugeString: fc.Arbitrary<string> = hugeLengths.map((n) => 'x'.repeat(n));

/** Names that are not DNS subdomains or labels, and some that are at the edge of one. */
export const oddName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '-a', 'a-', 'A', 'a_b', 'a..b', '.', '..', 'a/b', 'a%2Fb', ' a', 'a'.repeat(64), 'a'.repeat(254)),
  fc.string({ minLength: 1, maxLength: 12 }),
);

const aliasBomb = (levels: number): string => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < levels; i++) {
    const prev = `*${String.fromCharCode(96 + i)}`;
    lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(prev).join(',')}]`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n${lines.join('\n')}\n`;
};

/** Whole bodies that break parsers rather than validators; text or bytes. */
export const rawBody: fc.Arbitrary<{ body: string | Buffer; contentType: string; label: string }> = fc.oneof(
  fc
    .tuple(depths, fc.boolean())
    .map(([d, obj]) => ({ body: nestedJSON(d, obj), contentType: 'application/json', label: `nested ${d} JSON` })),
  fc
    .tuple(yamlDepths, fc.boolean())
    .map(([d, obj]) => ({ body: nestedJSON(d, obj), contentType: 'application/yaml', label: `nested ${d} JSON as YAML` })),
  fc.tuple(yamlDepths).map(([d]) => ({
    body: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: ${'['.repeat(d)}${']'.repeat(d)}`,
    contentType: 'application/yaml',
    label: `yaml flow nested ${d}`,
  })),
  fc.integer({ min: 2, max: 9 }).map((n) => ({ body: aliasBomb(n), contentType: 'application/yaml', label: `alias bomb ${n}` })),
  hugeLengths.map((n) => ({
    body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"a":"${'x'.repeat(n)}"}}`,
    contentType: 'application/json',
    label: `huge string ${n}`,
  })),
  fc.constantFrom(
    '{"apiVersion":"v1","apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","name":"e"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"},"data":{"a":"1","a":"2"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"}} {',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n"},"data":{"a":1e400}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u"},"data":{"a":"\\ud800"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"__proto__","labels":{"__proto__":"x"}}}',
    '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
    'null',
    '"string"',
    '12',
    '[]',
    '{}',
  ).map((body) => ({ body, contentType: 'application/json', label: 'fixed odd JSON' })),
  fc.constantFrom(
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n  name: e\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: !!binary AAAA\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: !!js/function "f"}\n',
    '--- \napiVersion: v1\n---\nkind: Pod\n',
    '%YAML 9.9\n---\na: 1\n',
    'a: &x 1\nb: *y\n',
    'a: b: c',
    '? [a, b]\n: 1\n',
    '{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {1: 2, true: false, null: ~}}',
  ).map((body) => ({ body, contentType: 'application/yaml', label: 'fixed odd YAML' })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({
    body: Buffer.concat([Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"'), Buffer.from(bytes), Buffer.from('"}}')]),
    contentType: 'application/json',
    label: 'bad UTF-8 in JSON',
  })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({
    body: Buffer.concat([Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: '), Buffer.from(bytes)]),
    contentType: 'application/yaml',
    label: 'bad UTF-8 in YAML',
  })),
  fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 400 })).map(([magic, bytes]) => ({
    body: Buffer.concat([Buffer.from(magic ? [0x6b, 0x38, 0x73, 0x00] : []), Buffer.from(bytes)]),
    contentType: 'application/vnd.kubernetes.protobuf',
    label: `protobuf garbage${magic ? ' after the magic' : ''}`,
  })),
  fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'garbage', ';;', 'application/json; charset=latin1', 'application/cbor'), fc.string({ maxLength: 30 }))
    .map(([contentType, body]) => ({ body, contentType, label: `content type ${contentType}` })),
);
