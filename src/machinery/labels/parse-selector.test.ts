import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { labelValueMsg, namePartMsg, subdomainMsg } from '../validation/testing/kube-messages.js';
import { newPath } from '../validation/index.js';
import { parseSelector } from './parse-selector.js';
import { parseToRequirements } from './parser.js';

function parsed(input: string): string {
  const r = parseSelector(input);
  if (!r.ok) assert.fail(`${JSON.stringify(input)} did not parse: ${r.message}`);
  return r.selector.toString();
}

function failure(input: string): string {
  const r = parseSelector(input);
  if (r.ok) assert.fail(`${JSON.stringify(input)} parsed as ${r.selector.toString()}`);
  return r.message;
}

describe('parseSelector: accepted syntax, printed back as kube prints it', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c, y=b ,x=a', 'x=a,y=b,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x', 'x'],
    ['!x', '!x'],
    ['  !x  ,  y  ', '!x,y'],
    ['x in (a)', 'x in (a)'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (b, a, b)', 'x in (a,b)'],
    ['x notin (b,a)', 'x notin (a,b)'],
    ['x in ()', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (,)', 'x in ()'],
    ['x>1', 'x>1'],
    ['x<10', 'x<10'],
    ['x=', 'x='],
    ['x!=', 'x!='],
    ['x=,y=a', 'x=,y=a'],
    ['x in (in)', 'x in (in)'],
    ['in in (notin)', 'in in (notin)'],
    ['notin', 'notin'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a=b\t,\nc', 'a=b,c'],
    ['x=a,x!=b', 'x=a,x!=b'],
  ];
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      assert.equal(parsed(input), want);
    });
  }

  test('lone space is the empty selector', () => {
    const r = parseSelector('   ');
    assert.ok(r.ok && r.selector.empty());
  });
});

describe("parseSelector: refused syntax with kube's message", () => {
  const cases: [string, string][] = [
    [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['x=a,', "found '', expected: identifier after ','"],
    ['x=a,,y=b', "found ',', expected: identifier after ','"],
    ['x=a y', "found 'y', expected: ',' or 'end of string'"],
    ['x in (a)b', "found 'b', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['env IN (a)', "unable to parse requirement: found 'IN', expected: in, notin, =, ==, !=, gt, lt"],
    ['x!!y', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!x', "unable to parse requirement: found '!', expected: identifier"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x=>', "unable to parse requirement: found '>', expected: identifier"],
    ['a:b', `unable to parse requirement: <nil>: Invalid value: "a:b": ${namePartMsg}`],
    ['a:b=c', `unable to parse requirement: <nil>: Invalid value: "a:b": ${namePartMsg}`],
    ['!-a', `unable to parse requirement: <nil>: Invalid value: "-a": ${namePartMsg}`],
    [
      `${'k'.repeat(64)}=v`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    [
      'Bad_/-a',
      `unable to parse requirement: <nil>: Invalid value: "Bad_/-a": prefix part ${subdomainMsg}; ${namePartMsg}`,
    ],
    ['x=a:b', `unable to parse requirement: values[0][x]: Invalid value: "a:b": ${labelValueMsg}`],
    ['x=a||y', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${labelValueMsg}`],
    ['x in (a,-b)', `unable to parse requirement: values[0][x]: Invalid value: "-b": ${labelValueMsg}`],
    [
      'x in (-a,-b)',
      `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${labelValueMsg}, values[1][x]: Invalid value: "-b": ${labelValueMsg}]`,
    ],
    [
      `x=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
    [
      'x>a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>',
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['x>+5', `unable to parse requirement: values[0][x]: Invalid value: "+5": ${labelValueMsg}`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${labelValueMsg}`],
    [
      'x<1.5',
      `unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
  ];
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      assert.equal(failure(input), want);
    });
  }

  test('a path names where the selector sits', () => {
    const r = parseSelector('x=-a', newPath('spec', 'selector'));
    assert.ok(!r.ok);
    assert.equal(
      r.message,
      `unable to parse requirement: spec.selector.values[0][x]: Invalid value: "-a": ${labelValueMsg}`,
    );
  });

  test('a path also names a bad key', () => {
    const r = parseSelector('-x', newPath('q'));
    assert.ok(!r.ok);
    assert.equal(r.message, `unable to parse requirement: q: Invalid value: "-x": ${namePartMsg}`);
  });
});

describe('parseSelector: a NUL character reads as the end, as in kube', () => {
  test('inside a value it ends the token, and what follows is the next token', () => {
    assert.equal(failure('x=a\u0000junk'), "found 'junk', expected: ',' or 'end of string'");
  });
  test('after whitespace it ends the selector', () => {
    assert.equal(parsed('x=a \u0000junk'), 'x=a');
  });
});

describe('parseToRequirements', () => {
  test('requirements come sorted by key with sorted, distinct values', () => {
    const r = parseToRequirements('b in (z,y,z),a');
    assert.ok(r.ok);
    assert.deepEqual(r.requirements, [
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: 'in', values: ['y', 'z'] },
    ]);
  });

  test('operators map to kube selection operators', () => {
    const r = parseToRequirements('a=1,b==1,c!=1,d in (1),e notin (1),f>1,g<1,h,!i');
    assert.ok(r.ok);
    assert.deepEqual(
      r.requirements.map((q) => q.operator),
      ['=', '==', '!=', 'in', 'notin', 'gt', 'lt', 'exists', '!'],
    );
  });
});
