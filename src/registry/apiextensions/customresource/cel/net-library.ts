// kube's IP and CIDR libraries for CEL (k8s.io/apiserver pkg/cel/library/ip.go and cidr.go):
// ip(), isIP(), ip.isCanonical(), an IP's family and kind tests, cidr(), isCIDR(), a CIDR's
// containsIP, containsCIDR, ip, prefixLength and masked, and string() of either, with kube's
// errors (Go's net/netip texts inside). @bufbuild/cel takes object values as protobuf messages
// only, so an IP is a message `net.IP` holding its canonical text, a CIDR `net.CIDR` its address
// and length: equal values are equal messages, as kube compares them.
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import { messageTypes, type CelModules } from './message-types.js';
import {
  formatAddr,
  formatPrefix,
  is4In6,
  maskedAddr,
  parseAddr,
  parsePrefix,
  prefixContains,
  type Addr,
  type Prefix,
} from '../../../../machinery/netip/parse.js';
import { goQuote } from '../../../../machinery/validation/index.js';

function netDescs(m: CelModules): { ip: Protobuf.DescMessage; cidr: Protobuf.DescMessage } {
  const descs = messageTypes(m, {
    pkg: 'net',
    messages: {
      IP: [['addr', 'string']],
      CIDR: [
        ['addr', 'string'],
        ['bits', 'int32'],
      ],
    },
  });
  const get = (name: string): Protobuf.DescMessage => {
    const desc = descs.get(name);
    if (desc === undefined) throw new Error(`${name} missing from its own file`);
    return desc;
  };
  return { ip: get('net.IP'), cidr: get('net.CIDR') };
}

/** kube's parseIPAddr: netip's parse, without zones or IPv4-mapped IPv6. */
function parseIP(s: string): Addr {
  const parsed = parseAddr(s);
  if (!parsed.ok)
    throw new Error(`IP Address ${goQuote(s)} parse error during conversion from string: ${parsed.error}`);
  if (parsed.value.zone !== '') throw new Error(`IP address ${goQuote(s)} with zone value is not allowed`);
  if (is4In6(parsed.value)) throw new Error(`IPv4-mapped IPv6 address ${goQuote(s)} is not allowed`);
  return parsed.value;
}

const conversionError = 'network address parse error during conversion from string';

/** kube's parseCIDR; as kube, stringToCIDR prefixes its error once more. */
function parseCIDR(s: string): Prefix {
  const parsed = parsePrefix(s);
  if (!parsed.ok) throw new Error(`${conversionError}: ${conversionError}: ${parsed.error}`);
  if (is4In6(parsed.value.addr))
    throw new Error(`${conversionError}: IPv4-mapped IPv6 address ${goQuote(s)} is not allowed`);
  return parsed.value;
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const v4 = (a: Addr, octet: number): number => Number((a.value >> BigInt(24 - 8 * octet)) & 0xffn);
const v6Group = (a: Addr): number => Number(a.value >> 112n);
const isLoopback = (a: Addr): boolean => (a.bits === 32 ? v4(a, 0) === 127 : a.value === 1n);
const isMulticast = (a: Addr): boolean =>
  a.bits === 32 ? (v4(a, 0) & 0xf0) === 0xe0 : a.value >> 120n === 0xffn;
const isLinkLocalUnicast = (a: Addr): boolean =>
  a.bits === 32 ? v4(a, 0) === 169 && v4(a, 1) === 254 : (v6Group(a) & 0xffc0) === 0xfe80;
const isLinkLocalMulticast = (a: Addr): boolean =>
  a.bits === 32 ? v4(a, 0) === 224 && v4(a, 1) === 0 && v4(a, 2) === 0 : (v6Group(a) & 0xff0f) === 0xff02;
const isGlobalUnicast = (a: Addr): boolean =>
  a.value !== 0n &&
  !(a.bits === 32 && a.value === 0xffffffffn) &&
  !isLoopback(a) &&
  !isMulticast(a) &&
  !isLinkLocalUnicast(a);

/** The IP and CIDR libraries' functions, and the message types their values have. */
export function netLibrary(m: CelModules): { funcs: Cel.CelFunc[]; descs: Protobuf.DescMessage[] } {
  const { cel, protobuf } = m;
  const descs = netDescs(m);
  const IP = cel.objectType(descs.ip);
  const CIDR = cel.objectType(descs.cidr);
  const { STRING, BOOL, INT } = cel.CelScalar;

  const ipMessage = (a: Addr): Protobuf.Message => protobuf.create(descs.ip, { addr: formatAddr(a) });
  const cidrMessage = (p: Prefix): Protobuf.Message =>
    protobuf.create(descs.cidr, { addr: formatAddr(p.addr), bits: p.prefixBits });
  // A message holds a text this library wrote, which parses again.
  const ipOf = (v: Cel.CelValue<typeof IP>): Addr => parseIP((v.message as unknown as { addr: string }).addr);
  const cidrOf = (v: Cel.CelValue<typeof CIDR>): Prefix => {
    const { addr, bits } = v.message as unknown as { addr: string; bits: number };
    return { addr: parseIP(addr), prefixBits: bits };
  };
  const containsCIDR = (p: Prefix, other: Prefix): boolean =>
    p.prefixBits <= other.prefixBits &&
    prefixContains(p, maskedAddr({ addr: other.addr, prefixBits: p.prefixBits }));
  const ipTest = (name: string, test: (a: Addr) => boolean): Cel.CelFunc =>
    cel.celMethod(name, IP, [], BOOL, function () {
      return test(ipOf(this));
    });

  return {
    descs: [descs.ip, descs.cidr],
    funcs: [
      cel.celFunc('ip', [STRING], IP, (s) => ipMessage(parseIP(s))),
      cel.celFunc('isIP', [STRING], BOOL, (s) => succeeds(() => parseIP(s))),
      cel.celFunc('ip.isCanonical', [STRING], BOOL, (s) => formatAddr(parseIP(s)) === s),
      cel.celFunc('string', [IP], STRING, (v) => formatAddr(ipOf(v))),
      cel.celMethod('family', IP, [], INT, function () {
        return ipOf(this).bits === 32 ? 4n : 6n;
      }),
      ipTest('isUnspecified', (a) => a.value === 0n),
      ipTest('isLoopback', isLoopback),
      ipTest('isLinkLocalMulticast', isLinkLocalMulticast),
      ipTest('isLinkLocalUnicast', isLinkLocalUnicast),
      ipTest('isGlobalUnicast', isGlobalUnicast),
      cel.celFunc('cidr', [STRING], CIDR, (s) => cidrMessage(parseCIDR(s))),
      cel.celFunc('isCIDR', [STRING], BOOL, (s) => succeeds(() => parseCIDR(s))),
      cel.celFunc('string', [CIDR], STRING, (v) => formatPrefix(cidrOf(v))),
      cel.celMethod('containsIP', CIDR, [IP], BOOL, function (ip) {
        return prefixContains(cidrOf(this), ipOf(ip));
      }),
      cel.celMethod('containsIP', CIDR, [STRING], BOOL, function (s) {
        // kube passes a failed conversion on as a mismatched argument.
        if (!succeeds(() => parseIP(s))) throw new Error('no such overload');
        return prefixContains(cidrOf(this), parseIP(s));
      }),
      cel.celMethod('containsCIDR', CIDR, [CIDR], BOOL, function (other) {
        return containsCIDR(cidrOf(this), cidrOf(other));
      }),
      cel.celMethod('containsCIDR', CIDR, [STRING], BOOL, function (s) {
        return containsCIDR(cidrOf(this), parseCIDR(s));
      }),
      cel.celMethod('ip', CIDR, [], IP, function () {
        return ipMessage(cidrOf(this).addr);
      }),
      cel.celMethod('prefixLength', CIDR, [], INT, function () {
        return BigInt(cidrOf(this).prefixBits);
      }),
      cel.celMethod('masked', CIDR, [], CIDR, function () {
        const p = cidrOf(this);
        return cidrMessage({ addr: maskedAddr(p), prefixBits: p.prefixBits });
      }),
    ],
  };
}
