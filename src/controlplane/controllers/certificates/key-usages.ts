// A request's spec.usages as X.509 key usages (pkg/controller/certificates/authority/policies.go's
// keyUsagesFromStrings): keyUsage bits, and extended key usages ordered as Go numbers them.

/** keyUsage bit numbers (RFC 5280 4.2.1.3). */
const keyUsageBits: Readonly<Record<string, number>> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** Extended key usages in the order of Go's x509.ExtKeyUsage constants, with their OIDs. */
const extKeyUsages: readonly (readonly [readonly string[], string])[] = [
  [['any'], '2.5.29.37.0'],
  [['server auth'], '1.3.6.1.5.5.7.3.1'],
  [['client auth'], '1.3.6.1.5.5.7.3.2'],
  [['code signing'], '1.3.6.1.5.5.7.3.3'],
  [['email protection', 's/mime'], '1.3.6.1.5.5.7.3.4'],
  [['ipsec end system'], '1.3.6.1.5.5.7.3.5'],
  [['ipsec tunnel'], '1.3.6.1.5.5.7.3.6'],
  [['ipsec user'], '1.3.6.1.5.5.7.3.7'],
  [['timestamping'], '1.3.6.1.5.5.7.3.8'],
  [['ocsp signing'], '1.3.6.1.5.5.7.3.9'],
  [['microsoft sgc'], '1.3.6.1.4.1.311.10.3.3'],
  [['netscape sgc'], '2.16.840.1.113730.4.1'],
];

export interface X509Usages {
  readonly keyUsageBits: readonly number[];
  readonly extKeyUsages: readonly string[];
}

/** The usages as X.509 sees them, or kube's error naming those it does not know. */
export function x509Usages(usages: readonly string[]): X509Usages | { readonly error: string } {
  const unrecognized = usages.filter(
    (u) => keyUsageBits[u] === undefined && !extKeyUsages.some(([names]) => names.includes(u)),
  );
  if (unrecognized.length > 0)
    // Go's %q of a []KeyUsage: ["a" "b"].
    return { error: `unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]` };
  const bits = new Set(usages.flatMap((u) => (keyUsageBits[u] === undefined ? [] : [keyUsageBits[u]])));
  return {
    keyUsageBits: [...bits].sort((a, b) => a - b),
    extKeyUsages: extKeyUsages
      .filter(([names]) => usages.some((u) => names.includes(u)))
      .map(([, oid]) => oid),
  };
}
