// PodLogOptions from a pods/log query: kube's conversion errors (400) and ValidatePodLogOptions (422).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../../machinery/errors/index.js';
import { decodePodLogOptions, validatePodLogOptions } from './log-options.js';

const decode = (q: string) => decodePodLogOptions(new URLSearchParams(q));

function refusal(fn: () => unknown): [number, string] {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return [err.status.code, err.status.message ?? ''];
    throw err;
  }
  assert.fail('not refused');
}

describe('pods/log options', () => {
  it('decodes as the parameter codec does: first value, lenient booleans, RFC 3339 times', () => {
    assert.deepEqual(
      decode('container=a&container=b&follow=1&previous=FALSE&timestamps&tailLines=3&limitBytes=10'),
      { container: 'a', follow: true, previous: false, timestamps: true, tailLines: 3, limitBytes: 10 },
    );
    assert.equal(
      decode('sinceTime=2026-01-02T04:04:05%2B01:00').sinceTime,
      Date.parse('2026-01-02T03:04:05Z'),
    );
    assert.equal(decode('sinceSeconds=%2B5').sinceSeconds, 5);
  });

  it("answers 400 with Go's conversion text", () => {
    assert.deepEqual(
      refusal(() => decode('tailLines=x')),
      [400, 'strconv.ParseInt: parsing "x": invalid syntax'],
    );
    assert.deepEqual(
      refusal(() => decode('limitBytes=99999999999999999999')),
      [400, 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    );
    assert.deepEqual(
      refusal(() => decode('sinceTime=yesterday')),
      [400, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    );
  });

  it('validates as ValidatePodLogOptions with the split-streams gate off', () => {
    const invalid = (q: string): [number, string] =>
      refusal(() => {
        validatePodLogOptions(decode(q), 'p');
      });
    assert.deepEqual(invalid('tailLines=-1&limitBytes=0'), [
      422,
      'PodLogOptions "p" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]',
    ]);
    assert.deepEqual(invalid('sinceSeconds=5&sinceTime=2026-01-02T03:04:05Z'), [
      422,
      'PodLogOptions "p" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    ]);
    assert.deepEqual(invalid('sinceSeconds=0'), [
      422,
      'PodLogOptions "p" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0',
    ]);
    assert.deepEqual(invalid('stream=Stdout'), [
      422,
      'PodLogOptions "p" is invalid: stream: Forbidden: may not be specified',
    ]);
    validatePodLogOptions(decode('tailLines=0&limitBytes=1&sinceSeconds=1'), 'p');
  });
});
