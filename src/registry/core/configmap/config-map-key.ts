// validation.IsConfigMapKey (k8s.io/apimachinery/pkg/util/validation) and the size limit ConfigMaps and
// Secrets share (core.MaxSecretSize). Both kinds use them; they belong in machinery/validation.
import {
  compareGoStrings,
  dns1123SubdomainMaxLength,
  maxLenError,
  regexError,
} from '../../../machinery/validation/index.js';

/** core.MaxSecretSize: 1 MiB for all values of a ConfigMap or Secret together. */
export const maxSecretSize = 1024 * 1024;

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

/** Why `value` cannot be a key of data or binaryData; none when it can. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRegexp.test(value)) {
    errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** The decoded size of a base64 value, as the bytes Go would hold after decoding. */
export function base64Size(value: string): number {
  return Buffer.from(value, 'base64').length;
}

/** Go's sorted map iteration stands in for its random one: errors come out in key order. */
export function sortedKeys(map: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.keys(map ?? {}).sort(compareGoStrings);
}
