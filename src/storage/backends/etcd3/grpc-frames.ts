// gRPC over HTTP/2 framing (the "Length-Prefixed-Message" of the gRPC wire protocol) and the status
// codes etcd answers with. Only what an etcd client needs: no compression (we never ask for it).

/** gRPC status codes (google.rpc.Code) that the client reacts to. */
export const grpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** A non-OK gRPC status from the server, or a transport failure dressed as one. */
export class GrpcStatusError extends Error {
  readonly code: number;
  readonly details: string;
  constructor(code: number, details: string, options?: { cause?: unknown }) {
    super(`grpc status ${code}: ${details}`, options);
    this.name = 'GrpcStatusError';
    this.code = code;
    this.details = details;
  }
}

export function frameMessage(body: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(5 + body.length);
  frame[0] = 0;
  frame.writeUInt32BE(body.length, 1);
  body.copy(frame, 5);
  return frame;
}

/** Reassembles length-prefixed messages from HTTP/2 DATA chunks of any size. */
export class MessageReader {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Feeds a chunk; returns the messages it completed (usually zero or one). */
  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const out: Buffer[] = [];
    for (;;) {
      if (this.#buffered < 5) return out;
      const head = this.#peek(5);
      if (head[0] !== 0)
        throw new GrpcStatusError(grpcStatus.INTERNAL, 'compressed gRPC message not supported');
      const len = head.readUInt32BE(1);
      if (len > this.#maxBytes) {
        throw new GrpcStatusError(grpcStatus.INTERNAL, `message of ${len} bytes exceeds ${this.#maxBytes}`);
      }
      if (this.#buffered < 5 + len) return out;
      const all = this.#peek(5 + len);
      out.push(all.subarray(5, 5 + len));
      this.#consume(5 + len);
    }
  }

  /** True when a partial message is left over (a truncated response). */
  get pending(): boolean {
    return this.#buffered > 0;
  }

  #peek(n: number): Buffer {
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= n) return first;
    const joined = Buffer.concat(this.#chunks);
    this.#chunks = [joined];
    return joined;
  }

  /** Drops n bytes; #peek(n) has just made the first chunk at least n long. */
  #consume(n: number): void {
    const first = this.#chunks[0];
    if (first === undefined) return;
    const rest = first.subarray(n);
    if (rest.length === 0) this.#chunks.shift();
    else this.#chunks[0] = rest;
    this.#buffered -= n;
  }
}

/** Reads grpc-status / grpc-message from a headers or trailers block; null when absent. */
export function statusFromHeaders(headers: Record<string, unknown>): GrpcStatusError | 'ok' | null {
  const raw = headers['grpc-status'];
  if (raw === undefined) return null;
  const code = Number(raw);
  if (code === 0) return 'ok';
  const msg = headers['grpc-message'];
  let details = typeof msg === 'string' ? msg : '';
  try {
    details = decodeURIComponent(details);
  } catch {
    // keep the raw text: grpc-message is percent-encoded, but a broken encoding is still readable
  }
  return new GrpcStatusError(Number.isFinite(code) ? code : grpcStatus.UNKNOWN, details);
}
