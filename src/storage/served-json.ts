// An object's JSON as a read answers it: the stored bytes with `metadata.resourceVersion` spliced
// in. Storage keeps objects without their resourceVersion (it is the store's revision, as in
// kube's etcd3 store), so a read would otherwise decode, set it and encode again; splicing the field
// into the bytes serves the stored encoding as it is. The splice goes right after `"metadata":{`,
// which for objects written by Capstan or kube-apiserver is found within the first few dozen bytes.

/** Served JSON and where the spliced resourceVersion member sits in it (`[rvStart, rvEnd)`). */
export interface ServedJSON {
  readonly json: Buffer;
  readonly rvStart: number;
  /** Past the member and the comma that follows it, if any. */
  readonly rvEnd: number;
}

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const metadataKey = Buffer.from('metadata');

const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function skipSpace(buf: Buffer, i: number): number {
  while (isSpace(buf[i])) i++;
  return i;
}

/** Past the string starting at `i` (its opening quote). */
function skipString(buf: Buffer, i: number): number {
  for (i++; i < buf.length; i++) {
    const b = buf[i];
    if (b === backslash) i++;
    else if (b === quote) return i + 1;
  }
  return -1;
}

/** Past the value starting at `i`: a string, an object or array (nested), or a bare literal. */
function skipValue(buf: Buffer, i: number): number {
  const first = buf[i];
  if (first === quote) return skipString(buf, i);
  if (first !== openBrace && first !== openBracket) {
    while (i < buf.length && buf[i] !== 0x2c && buf[i] !== closeBrace && buf[i] !== closeBracket) i++;
    return i;
  }
  let depth = 0;
  for (; i < buf.length; i++) {
    const b = buf[i];
    if (b === quote) {
      i = skipString(buf, i) - 1;
      if (i < 0) return -1;
    } else if (b === openBrace || b === openBracket) depth++;
    else if (b === closeBrace || b === closeBracket) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The position just inside the top-level `metadata` object, or -1 when there is none. */
export function metadataBodyOffset(buf: Buffer): number {
  let i = skipSpace(buf, 0);
  if (buf[i] !== openBrace) return -1;
  i++;
  for (;;) {
    i = skipSpace(buf, i);
    if (buf[i] !== quote) return -1;
    const keyStart = i + 1;
    i = skipString(buf, i);
    if (i < 0) return -1;
    const isMetadata = buf.compare(metadataKey, 0, metadataKey.length, keyStart, i - 1) === 0;
    i = skipSpace(buf, i);
    if (buf[i] !== colon) return -1;
    i = skipSpace(buf, i + 1);
    if (isMetadata) return buf[i] === openBrace ? i + 1 : -1;
    i = skipValue(buf, i);
    if (i < 0) return -1;
    i = skipSpace(buf, i);
    if (buf[i] !== 0x2c) return -1;
    i++;
  }
}

function member(rv: number, comma: boolean): Buffer {
  return Buffer.from(`"resourceVersion":"${rv}"${comma ? ',' : ''}`);
}

/** The stored bytes with resourceVersion `rv`; null when they have no top-level metadata object. */
export function spliceResourceVersion(stored: Buffer, rv: number): ServedJSON | null {
  const at = metadataBodyOffset(stored);
  if (at < 0) return null;
  const piece = member(rv, stored[skipSpace(stored, at)] !== closeBrace);
  return {
    json: Buffer.concat([stored.subarray(0, at), piece, stored.subarray(at)]),
    rvStart: at,
    rvEnd: at + piece.length,
  };
}

/** The same JSON at another resourceVersion (a deletion carries the last state at its own revision). */
export function withResourceVersion(served: ServedJSON, rv: number): ServedJSON {
  const { json, rvStart, rvEnd } = served;
  const piece = member(rv, json[rvEnd - 1] === 0x2c);
  return {
    json: Buffer.concat([json.subarray(0, rvStart), piece, json.subarray(rvEnd)]),
    rvStart,
    rvEnd: rvStart + piece.length,
  };
}

/** The stored bytes the served JSON was made from. */
export function storedBytes(served: ServedJSON): Buffer {
  return Buffer.concat([served.json.subarray(0, served.rvStart), served.json.subarray(served.rvEnd)]);
}

const rvPrefix = Buffer.from('"resourceVersion":"');

/**
 * Served JSON as spliceResourceVersion makes it, with its resourceVersion member found again (the
 * first member of metadata); null for JSON not in that form.
 */
export function locateResourceVersion(json: Buffer): ServedJSON | null {
  const at = metadataBodyOffset(json);
  if (at < 0 || at + rvPrefix.length > json.length) return null;
  if (json.compare(rvPrefix, 0, rvPrefix.length, at, at + rvPrefix.length) !== 0) return null;
  const close = json.indexOf(quote, at + rvPrefix.length);
  if (close < 0) return null;
  const end = json[close + 1] === 0x2c ? close + 2 : close + 1;
  return { json, rvStart: at, rvEnd: end };
}

// A write's served JSON is wanted twice: by the response to the write and by the watch cache fed by
// its event, both holding the written object. Whichever comes first splices; the other reuses it.
const writtenServed = new WeakMap<object, { readonly rv: number; readonly served: ServedJSON | null }>();

/** The served JSON of a written object, spliced once per object and revision. */
export function servedOfWrite(object: object, stored: Buffer, rv: number): ServedJSON | null {
  const memo = writtenServed.get(object);
  if (memo?.rv === rv) return memo.served;
  const served = spliceResourceVersion(stored, rv);
  writtenServed.set(object, { rv, served });
  return served;
}

// The served JSON of objects handed out without decoding (the watch cache's events): a memo by
// identity, so a writer reaches the bytes of an object it is passed. Holders are frozen.
const attached = new WeakMap<object, Buffer>();

export function attachServedJSON(holder: object, json: Buffer): void {
  attached.set(holder, json);
}

/** The JSON attached to `holder`, if any. */
export function servedJSONOf(holder: object): Buffer | undefined {
  return attached.get(holder);
}
