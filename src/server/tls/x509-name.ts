// X.509 names as Go's crypto/x509/pkix.Name holds them: the attributes it knows, read from an
// RDNSequence (FillFromRDNSequence) and written back in its order (ToRDNSequence): the values of
// one attribute type share one relative distinguished name, and the others a request carried
// (emailAddress, …) are dropped, as they are from the certificates kube's signer issues.
import * as der from './der.js';
import {
  children,
  contentOf,
  directoryString,
  oidText,
  readWhole,
  tags,
  DerError,
} from '../../machinery/der/der-reader.js';

export interface NameFields {
  readonly country?: readonly string[];
  readonly province?: readonly string[];
  readonly locality?: readonly string[];
  readonly streetAddress?: readonly string[];
  readonly postalCode?: readonly string[];
  readonly organization?: readonly string[];
  readonly organizationalUnit?: readonly string[];
  readonly commonName?: string;
  readonly serialNumber?: string;
}

type ListField = Exclude<keyof NameFields, 'commonName' | 'serialNumber'>;

/** ToRDNSequence's order, with each attribute's OID. */
const listFields: readonly (readonly [ListField, string])[] = [
  ['country', '2.5.4.6'],
  ['province', '2.5.4.8'],
  ['locality', '2.5.4.7'],
  ['streetAddress', '2.5.4.9'],
  ['postalCode', '2.5.4.17'],
  ['organization', '2.5.4.10'],
  ['organizationalUnit', '2.5.4.11'],
];
const commonNameOid = '2.5.4.3';
const serialNumberOid = '2.5.4.5';

// encoding/asn1's PrintableString alphabet, '*' and '&' excluded as its marshalling excludes them.
const printable = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** A string as encoding/asn1 writes an untyped one: PrintableString when it can, else UTF8String. */
export const goString = (s: string): der.Der =>
  printable.test(s) ? der.tlv(tags.PRINTABLE_STRING, Buffer.from(s, 'latin1')) : der.utf8String(s);

/** A SET OF in DER order: its elements sorted by their encodings. */
const setOf = (items: readonly der.Der[]): der.Der =>
  der.set(...[...items].sort((a, b) => Buffer.compare(a, b)));

function rdn(oid: string, values: readonly string[]): der.Der {
  return setOf(values.map((v) => der.sequence(der.oid(oid), goString(v))));
}

/** The Name's DER: an RDNSequence in pkix.Name.ToRDNSequence's order. */
export function encodeName(n: NameFields): der.Der {
  const rdns: der.Der[] = [];
  for (const [field, oid] of listFields) {
    const values = n[field] ?? [];
    if (values.length > 0) rdns.push(rdn(oid, values));
  }
  if ((n.commonName ?? '') !== '') rdns.push(rdn(commonNameOid, [n.commonName ?? '']));
  if ((n.serialNumber ?? '') !== '') rdns.push(rdn(serialNumberOid, [n.serialNumber ?? '']));
  return der.sequence(...rdns);
}

/** The fields of an RDNSequence (with its tag and length); a repeated CN or serialNumber: the last. */
export function parseName(name: Buffer, malformed: string): NameFields {
  const lists: Partial<Record<ListField, string[]>> = {};
  let commonName: string | undefined;
  let serialNumber: string | undefined;
  for (const set of children(name, readWhole(name, malformed), malformed)) {
    if (set.tag !== tags.SET) throw new DerError(malformed);
    for (const atv of children(name, set, malformed)) {
      const [oid, value] = children(name, atv, malformed);
      if (oid?.tag !== tags.OID || value === undefined) throw new DerError(malformed);
      const type = oidText(contentOf(name, oid));
      const text = directoryString(name, value);
      if (type === commonNameOid) commonName = text;
      else if (type === serialNumberOid) serialNumber = text;
      else {
        const field = listFields.find(([, o]) => o === type)?.[0];
        if (field !== undefined) (lists[field] ??= []).push(text);
      }
    }
  }
  return {
    ...lists,
    ...(commonName === undefined ? {} : { commonName }),
    ...(serialNumber === undefined ? {} : { serialNumber }),
  };
}
