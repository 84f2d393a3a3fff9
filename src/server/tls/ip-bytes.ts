// The bytes of an IP address for an X.509 iPAddress name (4 for IPv4, 16 for IPv6).
import { isIPv4, isIPv6 } from 'node:net';

function v6Groups(text: string): number[] {
  const [head = '', tail] = text.split('::');
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

export function ipBytes(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  if (!isIPv6(address) || address.includes('.'))
    throw new Error(`not an IP address this server can certify: ${address}`);
  const out = Buffer.alloc(16);
  v6Groups(address).forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}
