import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from './dns.js';
import {
  maskTrailingDash,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateNamespaceName,
} from './name-validators.js';
import { isValidPathSegmentName, isValidPathSegmentPrefix, validatePathSegmentName } from './path-segment.js';
import { isQualifiedName, isValidLabelValue } from './qualified-name.js';
import {
  dns1035LabelMsg,
  dnsLabelMsg,
  labelValueMsg,
  multiSlashKeyMsg,
  namePartMsg,
  subdomainMsg,
} from './testing/kube-messages.js';

type Check = (value: string) => string[];
type Case = [Check, string, string[]];

const a = (n: number): string => 'a'.repeat(n);

function runTable(cases: Case[]): void {
  for (const [check, input, want] of cases) {
    const shown = input.length > 20 ? `${input.slice(0, 12)}…(${input.length})` : input;
    test(`${check.name}(${JSON.stringify(shown)})`, () => {
      assert.deepEqual(check(input), want);
    });
  }
}

describe('DNS names', () => {
  runTable([
    [isDNS1123Subdomain, 'example.com', []],
    [isDNS1123Subdomain, 'a', []],
    [isDNS1123Subdomain, '0-a.b-1', []],
    [isDNS1123Subdomain, a(253), []],
    [isDNS1123Subdomain, a(254), ['must be no more than 253 characters']],
    [isDNS1123Subdomain, `${a(253)}.`, ['must be no more than 253 characters', subdomainMsg]],
    [isDNS1123Subdomain, '', [subdomainMsg]],
    [isDNS1123Subdomain, 'Example.com', [subdomainMsg]],
    [isDNS1123Subdomain, '-a', [subdomainMsg]],
    [isDNS1123Subdomain, 'a-', [subdomainMsg]],
    [isDNS1123Subdomain, 'a..b', [subdomainMsg]],
    [isDNS1123Subdomain, 'a_b', [subdomainMsg]],
    [isDNS1123Subdomain, 'a\nb', [subdomainMsg]],
    [isDNS1123Label, 'my-name', []],
    [isDNS1123Label, '123-abc', []],
    [isDNS1123Label, a(63), []],
    [isDNS1123Label, a(64), ['must be no more than 63 characters']],
    [isDNS1123Label, 'a.b', ['must not contain dots']],
    [isDNS1123Label, `${a(64)}.b`, ['must be no more than 63 characters', 'must not contain dots']],
    [isDNS1123Label, 'A', [dnsLabelMsg]],
    [isDNS1123Label, '', [dnsLabelMsg]],
    [isDNS1123Label, 'a_b', [dnsLabelMsg]],
    [isDNS1035Label, 'my-name', []],
    [isDNS1035Label, '1abc', [dns1035LabelMsg]],
    [isDNS1035Label, 'a.b', [dns1035LabelMsg]],
    [isDNS1035Label, a(64), ['must be no more than 63 characters']],
  ]);
});

describe('qualified names and label values', () => {
  runTable([
    [isQualifiedName, 'app', []],
    [isQualifiedName, 'My_Name.1-x', []],
    [isQualifiedName, 'example.com/app', []],
    [isQualifiedName, 'kubernetes.io/metadata.name', []],
    [isQualifiedName, a(63), []],
    [isQualifiedName, a(64), ['name part must be no more than 63 characters']],
    [isQualifiedName, '', ['name part must be non-empty', namePartMsg]],
    [isQualifiedName, 'a:', [namePartMsg]],
    [isQualifiedName, '-a', [namePartMsg]],
    [isQualifiedName, 'a b', [namePartMsg]],
    [isQualifiedName, '/a', ['prefix part must be non-empty']],
    [isQualifiedName, 'a/', ['name part must be non-empty', namePartMsg]],
    [isQualifiedName, 'Example.com/a', [`prefix part ${subdomainMsg}`]],
    [isQualifiedName, 'Bad_/-a', [`prefix part ${subdomainMsg}`, namePartMsg]],
    [isQualifiedName, `${a(254)}/a`, ['prefix part must be no more than 253 characters']],
    [isQualifiedName, 'a/b/c', [multiSlashKeyMsg]],
    [isValidLabelValue, '', []],
    [isValidLabelValue, 'web', []],
    [isValidLabelValue, 'My_value.1-x', []],
    [isValidLabelValue, a(63), []],
    [isValidLabelValue, a(64), ['must be no more than 63 characters']],
    [isValidLabelValue, `${a(63)}-`, ['must be no more than 63 characters', labelValueMsg]],
    [isValidLabelValue, 'a b', [labelValueMsg]],
    [isValidLabelValue, '-a', [labelValueMsg]],
    [isValidLabelValue, 'a/b', [labelValueMsg]],
    // Lengths are UTF-8 bytes, as Go counts them: 32 characters, 64 bytes.
    [isValidLabelValue, 'é'.repeat(32), ['must be no more than 63 characters', labelValueMsg]],
  ]);
});

describe('path segment names', () => {
  runTable([
    [isValidPathSegmentName, 'foo', []],
    [isValidPathSegmentName, '...', []],
    [isValidPathSegmentName, '.', ["may not be '.'"]],
    [isValidPathSegmentName, '..', ["may not be '..'"]],
    [isValidPathSegmentName, 'a/b', ["may not contain '/'"]],
    [isValidPathSegmentName, 'a%2F', ["may not contain '%'"]],
    [isValidPathSegmentName, '%/', ["may not contain '/'", "may not contain '%'"]],
    [isValidPathSegmentPrefix, '.', []],
    [isValidPathSegmentPrefix, 'a/', ["may not contain '/'"]],
  ]);
  test('validatePathSegmentName checks a prefix for generateName', () => {
    assert.deepEqual(validatePathSegmentName('..', true), []);
    assert.deepEqual(validatePathSegmentName('..', false), ["may not be '..'"]);
  });
});

describe('name validation functions', () => {
  const masks: [string, string][] = [
    ['foo-', 'foa'],
    ['a-', 'a'],
    ['-', '-'],
    ['foo', 'foo'],
    ['', ''],
  ];
  for (const [input, want] of masks) {
    test(`maskTrailingDash(${JSON.stringify(input)})`, () => {
      assert.equal(maskTrailingDash(input), want);
    });
  }

  const cases: [string, string[], string[]][] = [
    ['nameIsDNSSubdomain prefix with trailing dash', nameIsDNSSubdomain('foo-', true), []],
    ['nameIsDNSSubdomain name with trailing dash', nameIsDNSSubdomain('foo-', false), [subdomainMsg]],
    ['nameIsDNSSubdomain lone dash prefix', nameIsDNSSubdomain('-', true), [subdomainMsg]],
    ['nameIsDNSSubdomain uppercase prefix', nameIsDNSSubdomain('Foo-', true), [subdomainMsg]],
    ['nameIsDNSLabel prefix with dots', nameIsDNSLabel('a.b-', true), ['must not contain dots']],
    ['nameIsDNSLabel prefix', nameIsDNSLabel('web-', true), []],
    ['nameIsDNS1035Label digit start', nameIsDNS1035Label('1a-', true), [dns1035LabelMsg]],
    ['nameIsDNS1035Label prefix', nameIsDNS1035Label('svc-', true), []],
    ['validateNamespaceName', validateNamespaceName('kube-system', false), []],
    ['validateNamespaceName with dots', validateNamespaceName('a.b', false), ['must not contain dots']],
  ];
  for (const [name, got, want] of cases) {
    test(name, () => {
      assert.deepEqual(got, want);
    });
  }
});
