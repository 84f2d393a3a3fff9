// The tolerations and pod-deletion-cost annotations as kube 1.33 validates them
// (ValidatePodSpecificAnnotations): Go's json.Unmarshal errors, the tolerations' own checks under a
// child path, and the deletion cost's int32 parse, relaxed on an update of a pod that had a bad one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { ErrorList } from '../../../../machinery/validation/index.js';
import { setPodDefaults } from '../defaults.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from '../validation.js';
import { decodeTolerationsAnnotation } from './tolerations-annotation.js';

const tolerationsKey = 'scheduler.alpha.kubernetes.io/tolerations';
const costKey = 'controller.kubernetes.io/pod-deletion-cost';

function pod(annotations: Record<string, string>): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1', annotations },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  };
  setPodDefaults(p);
  return p;
}

const texts = (errs: ErrorList): string[] => errs.map((e) => `${e.type} ${e.error()}`);
const create = (annotations: Record<string, string>): string[] => texts(validatePod(pod(annotations)));

/** The error kube gives for a tolerations annotation json.Unmarshal refuses. */
const unmarshal = (message: string): string =>
  `FieldValueInvalid metadata.annotations: Invalid value: "${tolerationsKey}": ${message}`;

describe('the tolerations annotation as kube 1.33', () => {
  it('accepts valid tolerations, null, and an empty value (which it skips)', () => {
    for (const value of [
      '',
      'null',
      '[]',
      '[{"key":"k","operator":"Equal","value":"v","effect":"NoExecute","tolerationSeconds":30}]',
      ' [ { "operator" : "Exists" } ] ',
    ])
      assert.deepEqual(create({ [tolerationsKey]: value }), [], value);
  });

  it("reports a syntax error with Go's text, the key as the value, at metadata.annotations", () => {
    assert.deepEqual(create({ [tolerationsKey]: 'x' }), [
      unmarshal("invalid character 'x' looking for beginning of value"),
    ]);
    assert.deepEqual(create({ [tolerationsKey]: '[{"key":"k"}' }), [
      unmarshal('unexpected end of JSON input'),
    ]);
  });

  it("reports Go's type errors, naming the internal type's untagged Go fields", () => {
    const cases: [string, string][] = [
      ['{}', 'json: cannot unmarshal object into Go value of type []core.Toleration'],
      ['"a"', 'json: cannot unmarshal string into Go value of type []core.Toleration'],
      ['[{"operator":"Exists"}, 1]', 'json: cannot unmarshal number into Go value of type core.Toleration'],
      ['[{"key":1}]', 'json: cannot unmarshal number into Go struct field Toleration.Key of type string'],
      [
        '[{"operator":true}]',
        'json: cannot unmarshal bool into Go struct field Toleration.Operator of type core.TolerationOperator',
      ],
      [
        '[{"effect":["NoExecute"]}]',
        'json: cannot unmarshal array into Go struct field Toleration.Effect of type core.TaintEffect',
      ],
      [
        '[{"tolerationSeconds":1.5}]',
        'json: cannot unmarshal number 1.5 into Go struct field Toleration.TolerationSeconds of type int64',
      ],
      [
        '[{"tolerationSeconds":1e3}]',
        'json: cannot unmarshal number 1e3 into Go struct field Toleration.TolerationSeconds of type int64',
      ],
      [
        '[{"tolerationSeconds":9223372036854775808}]',
        'json: cannot unmarshal number 9223372036854775808 into Go struct field Toleration.TolerationSeconds of type int64',
      ],
      [
        '[{"tolerationSeconds":"30"}]',
        'json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64',
      ],
      // The first type error in document order, even when a later member overwrites the field.
      [
        '[{"value":{}, "value":"v", "key":2}]',
        'json: cannot unmarshal object into Go struct field Toleration.Value of type string',
      ],
    ];
    for (const [value, message] of cases)
      assert.deepEqual(create({ [tolerationsKey]: value }), [unmarshal(message)], value);
  });

  it('matches members to fields in any case, the last one winning, and ignores others', () => {
    assert.deepEqual(
      decodeTolerationsAnnotation(
        '[{"KEY":"a","Key":"b","oPeRaToR":"Exists","extra":{"x":[1,"]"]},"TOLERATIONſECONDS":5,"\u212aey":"c"}, null]',
      ),
      { tolerations: [{ key: 'c', operator: 'Exists', tolerationSeconds: 5 }, {}] },
    );
    // null leaves a string field as it was and clears the seconds.
    assert.deepEqual(
      decodeTolerationsAnnotation('[{"key":"k","key":null,"tolerationSeconds":1,"tolerationSeconds":null}]'),
      {
        tolerations: [{ key: 'k' }],
      },
    );
    // Only ſ and the Kelvin sign fold onto ASCII letters; a dotless ı names no field.
    assert.deepEqual(decodeTolerationsAnnotation('[{"tolerat\u0131onSeconds":"x"}]'), { tolerations: [{}] });
  });

  it('validates the decoded tolerations under a child path named by the key', () => {
    const at = `metadata.annotations.${tolerationsKey}`;
    assert.deepEqual(
      create({
        [tolerationsKey]:
          '[{"operator":"Equal"}, null, {"key":"k","operator":"In","effect":"Bad","tolerationSeconds":1}]',
      }),
      [
        `FieldValueInvalid ${at}[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
        `FieldValueInvalid ${at}[1].operator: Invalid value: "": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
        `FieldValueInvalid ${at}[2].effect: Invalid value: "Bad": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
        `FieldValueNotSupported ${at}[2].operator: Unsupported value: "In": supported values: "Equal", "Exists"`,
        `FieldValueNotSupported ${at}[2].effect: Unsupported value: "Bad": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
      ],
    );
  });

  it('comes after the mirror pod check and before the seccomp annotations', () => {
    assert.deepEqual(
      create({
        'seccomp.security.alpha.kubernetes.io/pod': 'bogus',
        [costKey]: 'x',
        [tolerationsKey]: '{',
        'kubernetes.io/config.mirror': 'm',
      }),
      [
        'FieldValueInvalid metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "m": must set spec.nodeName if mirror pod annotation is set',
        unmarshal('unexpected end of JSON input'),
        `FieldValueInvalid metadata.annotations[${costKey}]: Invalid value: "x": must be a 32bit integer`,
        'FieldValueInvalid metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
      ],
    );
  });
});

describe('the pod-deletion-cost annotation as kube 1.33', () => {
  const bad = (value: string): string =>
    `FieldValueInvalid metadata.annotations[${costKey}]: Invalid value: "${value}": must be a 32bit integer`;

  it('takes an int32 without a plus sign or a leading zero (a negative one may have zeros)', () => {
    for (const value of ['0', '10', '-10', '-0', '-007', '2147483647', '-2147483648'])
      assert.deepEqual(create({ [costKey]: value }), [], value);
    for (const value of [
      '',
      '+1',
      '007',
      '00',
      '1.0',
      '1e3',
      '-',
      ' 1',
      '1_000',
      '2147483648',
      '-2147483649',
      'abc',
    ])
      assert.deepEqual(create({ [costKey]: value }), [bad(value)], value);
  });

  it('lets an update keep a bad value the old pod had, and refuses one newly made bad', () => {
    const old = pod({ [costKey]: 'bad' });
    assert.deepEqual(texts(validatePodUpdate(pod({ [costKey]: 'worse' }), old)), []);
    assert.deepEqual(texts(validatePodStatusUpdate(pod({ [costKey]: 'bad' }), old)), []);
    const fine = pod({ [costKey]: '1' });
    // ValidatePodUpdate checks the annotations twice, once in ValidatePodSpecificAnnotationUpdates.
    assert.deepEqual(texts(validatePodUpdate(pod({ [costKey]: 'x' }), fine)), [bad('x'), bad('x')]);
    assert.deepEqual(texts(validatePodStatusUpdate(pod({ [costKey]: 'x' }), fine)), [bad('x')]);
  });
});
