// Label keys and values, as k8s.io/apimachinery/pkg/api/validate/content/kube.go.
import { isDNS1123Subdomain } from './dns.js';
import { byteLength, emptyError, maxLenError, regexError } from './messages.js';

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;
const labelKeyNameRegexp = new RegExp(`^${labelKeyFmt}$`);

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const labelValueMaxLength = 63;

/**
 * A "qualified name" (a label key): an optional DNS subdomain prefix and '/', then a name of at
 * most 63 characters. Returns the messages describing what is wrong, none when valid.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const slash = value.indexOf('/');
  let name = value;
  if (slash >= 0) {
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (name.includes('/')) {
      return [
        `a valid label key ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}` +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ];
    }
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((msg) => `prefix part ${msg}`));
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > labelKeyMaxLength) errs.push(`name part ${maxLenError(labelKeyMaxLength)}`);
  if (!labelKeyNameRegexp.test(name)) {
    errs.push(`name part ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** The same check under its newer kube name. */
export const isLabelKey = isQualifiedName;

/** A label value: empty, or up to 63 alphanumerics with '-', '_' or '.' inside. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (value.length > 0 && !labelKeyNameRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}
