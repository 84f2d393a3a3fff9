import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCel } from '../../testing/evaluate-cel.js';
import { compileCustomResourceRules } from './compile.js';

// kube's format_test.go cases (k8s.io/apiserver pkg/cel/library): none for a valid string, the
// list of kube's messages for an invalid one.

const label1123 =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomain1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const label1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** What validate() answers: 'none', or the messages of the optional list. */
async function validation(expr: string): Promise<string | string[]> {
  const hasValue = await evaluateCel(`${expr}.hasValue()`);
  if (hasValue === false) return 'none';
  return [...((await evaluateCel(`${expr}.value()`)) as Iterable<string>)];
}

describe("kube's format library", () => {
  it('answers none for valid strings', async () => {
    for (const expr of [
      'format.dns1123Label().validate("my-label-name")',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io")',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")',
      'format.dns1123LabelPrefix().validate("my-label-prefix-")',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")',
      'format.dns1035LabelPrefix().validate("my-label-prefix-")',
      'format.uri().validate("http://example.com")',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")',
      'format.byte().validate("aGVsbG8=")',
      'format.date().validate("2021-01-01")',
      'format.datetime().validate("2021-01-01T00:00:00Z")',
      'format.dns1035Label().validate("my-label-name")',
      'format.qualifiedName().validate("my.name")',
      'format.labelValue().validate("my-cool-label-Value")',
    ])
      assert.equal(await validation(expr), 'none', expr);
  });

  it("answers kube's messages for invalid strings", async () => {
    const cases: [string, string[]][] = [
      ['format.dns1123Label().validate("contains a space")', [label1123]],
      ['format.dns1123Subdomain().validate("contains a space")', [subdomain1123]],
      ['format.dns1035Label().validate("contains a space")', [label1035]],
      [
        'format.qualifiedName().validate("contains a space")',
        [
          "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ],
      ],
      ['format.dns1123LabelPrefix().validate("contains a space-")', [label1123]],
      ['format.dns1123SubdomainPrefix().validate("contains a space-")', [subdomain1123]],
      ['format.dns1035LabelPrefix().validate("contains a space-")', [label1035]],
      ['format.byte().validate("aGVsbG8")', ['invalid base64']],
      ['format.date().validate("2020-01-32")', ['invalid date']],
      ['format.datetime().validate("2020-01-32T00:00:00Z")', ['invalid datetime']],
      ['format.uuid().validate("x")', ['does not match the UUID format']],
      ['format.uri().validate("not a uri")', ['parse "not a uri": invalid URI for request']],
      [
        'format.labelValue().validate("my-cool-label-Value!!\\n\\n!!!")',
        [
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ],
      ],
    ];
    for (const [expr, want] of cases) assert.deepEqual(await validation(expr), want, expr);
  });

  it('looks formats up by name; each equals itself and no other', async () => {
    const names = [
      'dns1123Label',
      'dns1123Subdomain',
      'dns1035Label',
      'qualifiedName',
      'dns1123LabelPrefix',
      'dns1123SubdomainPrefix',
      'dns1035LabelPrefix',
      'labelValue',
      'uri',
      'uuid',
      'byte',
      'date',
      'datetime',
    ];
    assert.equal(await evaluateCel('format.named("unknown").hasValue()'), false);
    for (const a of names) {
      assert.equal(await evaluateCel(`format.named("${a}").value() == format.${a}()`), true, a);
      for (const b of names)
        if (a !== b) assert.equal(await evaluateCel(`format.${a}() == format.${b}()`), false, `${a} ${b}`);
    }
  });

  it('is there for CRD rules, as a messageExpression too', async () => {
    const { errors, validator } = await compileCustomResourceRules({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              maxLength: 63,
              'x-kubernetes-validations': [
                {
                  rule: '!format.dns1123Label().validate(self).hasValue()',
                  messageExpression: 'format.dns1123Label().validate(self).value()[0]',
                },
              ],
            },
          },
        },
      },
    });
    assert.deepEqual(errors, []);
    assert.ok(validator !== undefined);
    assert.deepEqual(validator.validate({ spec: { name: 'ok-name' } }, undefined), []);
    assert.deepEqual(
      validator.validate({ spec: { name: 'Not OK' } }, undefined).map((e) => e.error()),
      [`spec.name: Invalid value: "string": ${label1123}`],
    );
  });
});
