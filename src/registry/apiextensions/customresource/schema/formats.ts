// The string formats kube validates in custom resources: apiextensions-apiserver's supportedFormats
// (others are stripped before validation) checked as kube-openapi's strfmt default registry does.
import { parseAddr } from '../../../../machinery/netip/parse.js';
import { isIPSloppy, parseCIDRSloppy } from '../../../../machinery/netip/sloppy.js';

// Go's \s is ASCII whitespace only; ECMAScript's also takes Unicode spaces.
const goSpace = String.raw`[\t\n\f\r ]`;
const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const hostnameLabel = String.raw`[a-zA-Z0-9\p{S}\p{L}]`;
const hostname = new RegExp(
  String.raw`^(${hostnameLabel}((-?${hostnameLabel}{0,62})?)|(${hostnameLabel}(([a-zA-Z0-9\-\p{S}\p{L}]{0,61}${hostnameLabel})?)(\.)){1,}(${hostnameLabel})(-?${hostnameLabel}){1,62})$`,
  'u',
);
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const email = /^[^\t\n\f\r @<>()[\]\\,;:"]+@[^\t\n\f\r @<>()[\]\\,;:"]+$/;
const mac = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$/;
const hexcolor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbPart = String.raw`${goSpace}*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])${goSpace}*`;
const rgbcolor = new RegExp(`^rgb\\(${rgbPart},${rgbPart},${rgbPart}\\)$`);
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const bsonObjectId = /^[0-9a-fA-F]{24}$/;
const date = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const duration = /^([+-]?(\d+(\.\d*)?|\.\d+)[\t\n\f\r ]*(ns|us|\u00b5s|ms|s|m|h|d|w|[a-z]+)[\t\n\f\r ]*)+$/;
const durationUnits = new Set([
  'ns', 'us', '\u00b5s', 'ms', 's', 'm', 'h', 'd', 'w',
  'second', 'seconds', 'sec', 'secs', 'minute', 'minutes', 'min', 'mins',
  'hour', 'hours', 'hr', 'hrs', 'day', 'days', 'week', 'weeks',
]); // prettier-ignore

function isValidDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
  return d <= days;
}

function isDate(s: string): boolean {
  const m = date.exec(s);
  return m !== null && isValidDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m = dateTime.exec(s);
  if (m === null || !isValidDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60;
}

function isDuration(s: string): boolean {
  if (!duration.test(s)) return false;
  const units = s.match(/[a-z\u00b5]+/g) ?? [];
  return units.every((u) => durationUnits.has(u));
}

function isHostname(s: string): boolean {
  if (!hostname.test(s) || Buffer.byteLength(s) > 255) return false;
  return s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

/** strfmt's isIPv4: what netutils.ParseIPSloppy reads (leading zeros too), written with a dot. */
const isIPv4 = (s: string): boolean => isIPSloppy(s) && s.includes('.');

/** govalidator's IsIPv6: what Go's net.ParseIP reads (netip without a zone), written with a colon. */
function isIPv6(s: string): boolean {
  const addr = parseAddr(s);
  return addr.ok && addr.value.zone === '' && s.includes(':');
}

/** strfmt's isCIDR: what netutils.ParseCIDRSloppy reads. */
const isCIDR = (s: string): boolean => parseCIDRSloppy(s) !== undefined;

function isRequestURI(s: string): boolean {
  if (s.startsWith('/')) return !/[\t\n\f\r ]/.test(s);
  try {
    return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) && new URL(s).protocol.length > 0;
  } catch {
    return false;
  }
}

function isLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const v = s.replace(/[\t\n\f\r -]/g, '');
  if (!/^\d{9}[\dX]$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i + 1) * (v[i] === 'X' ? 10 : Number(v[i]));
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const v = s.replace(/[\t\n\f\r -]/g, '');
  if (!/^\d{13}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(v[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(v[12]);
}

/** The checks by format name, with kube's names (dashes removed: `date-time` is `datetime`). */
const checks: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => bsonObjectId.test(s),
  uri: isRequestURI,
  email: (s) => email.test(s),
  hostname: isHostname,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  mac: (s) => mac.test(s),
  uuid: (s) => uuid.test(s),
  uuid3: (s) => uuid3.test(s),
  uuid4: (s) => uuid4.test(s),
  uuid5: (s) => uuid5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: (s) => {
    const v = s.replace(/[\t\n\f\r -]/g, '');
    return /^\d{12,19}$/.test(v) && isLuhn(v);
  },
  ssn: (s) => ssn.test(s),
  hexcolor: (s) => hexcolor.test(s),
  rgbcolor: (s) => rgbcolor.test(s),
  byte: (s) => base64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** The format kube keeps for validation, or '' when it strips an unsupported one (int32, float, …). */
export function supportedFormat(format: string | undefined): string {
  if (format === undefined) return '';
  return Object.hasOwn(checks, format.replaceAll('-', '')) ? format : '';
}

/** Whether a string satisfies a supported format; unknown formats always pass. */
export function matchesFormat(format: string, value: string): boolean {
  const check = checks[format.replaceAll('-', '')];
  return check === undefined || check(value);
}
