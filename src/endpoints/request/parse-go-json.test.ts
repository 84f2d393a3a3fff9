import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxDecodeDepth as maxNestingDepth } from '../../machinery/json/depth.js';
import { goJSONSyntaxError } from '../../machinery/json/go-json-syntax.js';
import { parseGoJSON } from './parse-go-json.js';

const parse = (bytes: Buffer): ReturnType<typeof parseGoJSON> => parseGoJSON(bytes.toString('utf8'), bytes);

// Bodies at the edges of what JSON.parse and Go's scanner take: the scanner no longer runs on
// success, so each answer must still be the scanner's.
const edges: readonly [string, Buffer, string | null][] = [
  [
    'a UTF-8 BOM',
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    "invalid character 'ï' looking for beginning of value",
  ],
  [
    'an invalid byte outside strings',
    Buffer.from([0x7b, 0xff, 0x7d]),
    "invalid character 'ÿ' looking for beginning of object key string",
  ],
  ['invalid bytes inside a string', Buffer.from([0x22, 0xff, 0xc3, 0x22]), null],
  ['a truncated sequence before the closing quote', Buffer.from([0x22, 0xe2, 0x22]), null],
  ['an escaped lone surrogate', Buffer.from('"\\ud800"'), null],
  ['an escaped NUL', Buffer.from('{"a":"\\u0000"}'), null],
  ['a raw NUL in a string', Buffer.from('"a\u0000"'), "invalid character '\\x00' in string literal"],
  ['a number beyond float64', Buffer.from('{"a":1e400}'), null],
  ['trailing data', Buffer.from('{} {}'), "invalid character '{' after top-level value"],
  ['a top-level string', Buffer.from('"x"'), null],
  ['a top-level number', Buffer.from(' -0.5e+2 '), null],
  ['a top-level null', Buffer.from('null'), null],
  ['an empty body', Buffer.from(''), 'unexpected end of JSON input'],
  ['only whitespace', Buffer.from(' \n\t'), 'unexpected end of JSON input'],
  [
    'a non-breaking space',
    Buffer.from('{\u00a0}'),
    "invalid character 'Â' looking for beginning of object key string",
  ],
  ['a leading zero', Buffer.from('[01]'), "invalid character '1' after array element"],
  ['a raw DEL in a string', Buffer.from('"\u007f"'), null],
];

for (const [name, bytes, want] of edges) {
  test(`parseGoJSON: ${name}`, () => {
    assert.equal(goJSONSyntaxError(bytes), want, 'the scanner itself');
    const got = parse(bytes);
    if (want === null) assert.equal(got.ok, true);
    else assert.deepEqual(got, { ok: false, error: want });
  });
}

test('parseGoJSON: the value is JSON.parse’s', () => {
  assert.deepEqual(parse(Buffer.from('{"a":[1,"x",null,true]}')), {
    ok: true,
    value: { a: [1, 'x', null, true] },
  });
  assert.deepEqual(parse(Buffer.from([0x22, 0xff, 0x22])), { ok: true, value: '\ufffd' });
});

test("parseGoJSON: nesting deeper than Capstan allows (below Go's 10,000) is Go's syntax error", () => {
  const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const objects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  assert.equal(parseGoJSON(arrays(maxNestingDepth)).ok, true);
  assert.equal(parseGoJSON(objects(maxNestingDepth)).ok, true);
  assert.deepEqual(parseGoJSON(arrays(maxNestingDepth + 1)), {
    ok: false,
    error: "invalid character '[' exceeded max depth",
  });
  assert.deepEqual(parseGoJSON(objects(maxNestingDepth + 5)), {
    ok: false,
    error: "invalid character '{' exceeded max depth",
  });
  // Deep, and broken further on: the depth is found first, as Go's scanner finds it.
  assert.deepEqual(parseGoJSON(`${arrays(maxNestingDepth + 1)}x`), {
    ok: false,
    error: "invalid character '[' exceeded max depth",
  });
  // Brackets inside strings do not nest.
  const flat = JSON.stringify({ a: '['.repeat(3 * maxNestingDepth), b: [[{}]] });
  assert.equal(parseGoJSON(flat).ok, true);
  // Many brackets, none deep.
  assert.equal(parseGoJSON(JSON.stringify(Array.from({ length: maxNestingDepth }, () => [{}]))).ok, true);
});

// A deterministic generator of near-JSON documents: valid seeds with a few random edits.
function* mutations(count: number): Generator<Buffer> {
  const seeds = [
    '{"a":1,"b":[1,2,{"c":null}],"d":"x\\u00e9\\n","e":true,"f":false,"g":-1.5e+3}',
    ' [ {} , [ ] ] ',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}}}',
  ];
  const pieces = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    'u',
    '0',
    '1',
    'e',
    '.',
    '-',
    '+',
    't',
    'n',
    ' ',
    '\n',
    'x',
    'é',
    '\u0001',
    '\ufeff',
    '\ud800',
  ];
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) % n;
  };
  for (let i = 0; i < count; i++) {
    let s = seeds[rnd(seeds.length)] ?? '';
    for (let e = rnd(3); e > 0; e--) {
      const at = rnd(s.length + 1);
      const piece = pieces[rnd(pieces.length)] ?? '';
      const cut = rnd(2);
      s = s.slice(0, at) + (rnd(3) === 0 ? '' : piece) + s.slice(at + cut);
    }
    const bytes = Buffer.from(s);
    yield rnd(8) === 0 ? Buffer.concat([bytes, Buffer.from([0xff])]) : bytes;
  }
}

test('parseGoJSON: answers as the byte scanner on generated documents', () => {
  let failures = 0;
  for (const bytes of mutations(20000)) {
    const want = goJSONSyntaxError(bytes);
    const got = parse(bytes);
    if (!got.ok) failures++;
    assert.deepEqual(got.ok ? null : got.error, want, JSON.stringify(bytes.toString('utf8')));
  }
  // Both kinds of documents were generated.
  assert.ok(failures > 2000 && failures < 18000, `${failures} failures`);
});

test('parseGoJSON: an escaped lone surrogate is U+FFFD, as encoding/json decodes it', () => {
  assert.deepEqual(parseGoJSON('{"metadata":{"name":"a\\ud800b","labels":{"k\\udfff":"v"}}}'), {
    ok: true,
    value: { metadata: { name: 'a\ufffdb', labels: { 'k\ufffd': 'v' } } },
  });
  assert.deepEqual(parseGoJSON('"\\ud83d\\ude00"'), { ok: true, value: '😀' });
});
