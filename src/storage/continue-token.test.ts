import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeContinue, encodeContinue } from './continue-token.js';

const prefix = '/registry/configmaps/';
const tokenOf = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

/** The message decodeContinue throws for a token. */
function refusal(token: string): string {
  try {
    decodeContinue(token, prefix);
  } catch (err) {
    return (err as Error).message;
  }
  return assert.fail(`${token} was accepted`);
}

describe('decodeContinue, as kube reads a continue token (storage.DecodeContinue)', () => {
  it('reads back what encodeContinue wrote', () => {
    const token = encodeContinue(`${prefix}ns/b`, prefix, 42);
    assert.deepEqual(decodeContinue(token, prefix), { fromKey: `${prefix}ns/b`, rv: 42 });
  });

  it('matches members to the token struct as encoding/json does: by name without case, nulls and strangers skipped', () => {
    const token = tokenOf('{"V":"meta.k8s.io/v1","Rv":7,"START":"ns/c","extra":[1],"start":null}');
    assert.deepEqual(decodeContinue(token, prefix), { fromKey: `${prefix}ns/c`, rv: 7 });
  });

  it('takes any negative revision, which the stores read as the latest', () => {
    const token = tokenOf('{"v":"meta.k8s.io/v1","rv":-5,"start":"a"}');
    assert.deepEqual(decodeContinue(token, prefix), { fromKey: `${prefix}a`, rv: -5 });
  });

  it("refuses what Go's base64 and JSON decoding refuse, with their messages", () => {
    const cases: [string, string][] = [
      ['ab=c', 'illegal base64 data at input byte 2'],
      ['abcde', 'illegal base64 data at input byte 4'],
      [tokenOf('{"v":'), 'unexpected end of JSON input'],
      [tokenOf('[]'), 'json: cannot unmarshal array into Go value of type storage.continueToken'],
      [tokenOf('"x"'), 'json: cannot unmarshal string into Go value of type storage.continueToken'],
      [
        tokenOf('{"v":1,"rv":"2"}'),
        'json: cannot unmarshal number 1 into Go struct field continueToken.v of type string',
      ],
      [
        tokenOf('{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}'),
        'json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64',
      ],
      [tokenOf('null'), 'server does not recognize this encoded version '],
      [
        tokenOf('{"v":"meta.k8s.io/v1","start":"a"}'),
        'incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      ],
      [tokenOf('{"v":"meta.k8s.io/v1","rv":3}'), 'encoded start key empty (version meta.k8s.io/v1)'],
      [tokenOf('{"v":"meta.k8s.io/v1","rv":3,"start":"a/../../b"}'), 'a/../../b'],
    ];
    for (const [token, detail] of cases)
      assert.equal(refusal(token), `continue key is not valid: ${detail}`, token);
  });
});
