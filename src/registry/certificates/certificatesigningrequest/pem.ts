// PEM blocks (Go's encoding/pem, enough of it for certificate requests and certificates): the type,
// whether headers are present, and the DER bytes.
import { Buffer } from 'node:buffer';

export interface PemBlock {
  readonly type: string;
  readonly hasHeaders: boolean;
  readonly bytes: Buffer;
}

const blockPattern = /-----BEGIN ([^\r\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/g;
const base64Text = /^[A-Za-z0-9+/=\s]*$/;

/** Every well-formed block in `text`, in order; text between blocks is skipped as Go does. */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const m of text.matchAll(blockPattern)) {
    const body = m[2] ?? '';
    const lines = body.split(/\r?\n/);
    const headerEnd = lines.findIndex((l) => l.trim() === '');
    const hasHeaders = lines[0]?.includes(':') === true && headerEnd > 0;
    const payload = (hasHeaders ? lines.slice(headerEnd + 1) : lines).join('');
    if (!base64Text.test(payload)) continue;
    blocks.push({ type: m[1] ?? '', hasHeaders, bytes: Buffer.from(payload, 'base64') });
  }
  return blocks;
}

/** Base64 of a []byte field on the wire → its bytes. */
export function wireBytes(value: string | undefined): Buffer {
  return Buffer.from(value ?? '', 'base64');
}
