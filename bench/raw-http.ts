// A minimal HTTP/1.1 client connection for load generation: one request at a time on a keep-alive
// socket, requests pre-serialized, responses framed (Content-Length or chunked) and counted, never
// parsed. node:http's client costs more CPU per request than a bare server does to answer it, so
// with it the client, not the server, would set the pace.
import net from 'node:net';

export interface RawReply {
  readonly status: number;
  readonly bytes: number;
  /** The first bytes of the body, kept when the status was not the expected one. */
  readonly text?: string;
  /** The whole body, kept when asked for and the status was the expected one. */
  readonly body?: string;
}

const headEnd = Buffer.from('\r\n\r\n');
const crlf = Buffer.from('\r\n');
type Framing = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer';

export class RawConnection {
  readonly #socket: net.Socket;
  #framing: Framing = 'head';
  #pending: Buffer = Buffer.alloc(0);
  #status = 0;
  #remaining = 0;
  #bytes = 0;
  #expect = 0;
  #keep = false;
  #text = '';
  #wantBody = false;
  #chunks: Buffer[] = [];
  #done: ((reply: RawReply) => void) | undefined;
  #fail: ((err: Error) => void) | undefined;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      try {
        this.#onData(chunk);
      } catch (err) {
        this.#fail?.(err instanceof Error ? err : new Error(String(err)));
        this.#done = this.#fail = undefined;
        socket.destroy();
      }
    });
    const broken = (err?: Error): void => {
      this.#fail?.(err ?? new Error('connection closed before the response ended'));
      this.#done = this.#fail = undefined;
    };
    socket.on('error', broken);
    socket.on('close', () => {
      broken();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  /**
   * Sends one request and resolves when its whole response has arrived; with `keepBody`, a response
   * with the expected status comes back with its body (a client that writes what it last read).
   */
  send(request: Buffer, expectStatus: number, keepBody = false): Promise<RawReply> {
    if (this.#socket.destroyed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.#done = resolve;
      this.#fail = reject;
      this.#expect = expectStatus;
      this.#wantBody = keepBody;
      this.#framing = 'head';
      this.#bytes = 0;
      this.#text = '';
      this.#chunks = [];
      this.#socket.write(request);
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #onData(chunk: Buffer): void {
    let data: Buffer = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    while (data.length > 0 && this.#done !== undefined) {
      const used = this.#step(data);
      if (used < 0) {
        this.#pending = data;
        return;
      }
      data = data.subarray(used);
    }
  }

  /** Consumes a prefix of `data`; returns how much, or -1 to wait for more bytes. */
  #step(data: Buffer): number {
    switch (this.#framing) {
      case 'head': {
        const end = data.indexOf(headEnd);
        if (end < 0) return -1;
        if (this.#readHead(data.toString('latin1', 0, end)) === 0) this.#finish();
        return end + headEnd.length;
      }
      case 'length':
      case 'chunk-data': {
        const n = Math.min(this.#remaining, data.length);
        this.#body(data.subarray(0, n));
        this.#remaining -= n;
        if (this.#remaining === 0) {
          if (this.#framing === 'length') this.#finish();
          else this.#framing = 'chunk-end';
        }
        return n;
      }
      case 'chunk-size':
      case 'chunk-end':
      case 'trailer': {
        const end = data.indexOf(crlf);
        if (end < 0) return -1;
        if (this.#framing === 'chunk-end') this.#framing = 'chunk-size';
        else if (this.#framing === 'trailer') this.#finish();
        else {
          this.#remaining = parseInt(data.toString('latin1', 0, end), 16);
          this.#framing = this.#remaining === 0 ? 'trailer' : 'chunk-data';
        }
        return end + crlf.length;
      }
    }
  }

  /** Reads the status and the framing; returns the body length, or -1 when chunked. */
  #readHead(head: string): number {
    this.#status = Number(head.slice(9, 12));
    this.#keep = this.#status !== this.#expect;
    const lower = head.toLowerCase();
    const length = /\r\ncontent-length: *(\d+)/.exec(lower)?.[1];
    if (length !== undefined) {
      this.#framing = 'length';
      this.#remaining = Number(length);
      return this.#remaining;
    }
    if (!lower.includes('\r\ntransfer-encoding: chunked')) {
      throw new Error(`response without Content-Length or chunked encoding:\n${head}`);
    }
    this.#framing = 'chunk-size';
    return -1;
  }

  #body(bytes: Buffer): void {
    this.#bytes += bytes.length;
    if (this.#keep) {
      if (this.#text.length < 500) this.#text += bytes.toString('utf8');
    } else if (this.#wantBody) this.#chunks.push(bytes);
  }

  #finish(): void {
    const done = this.#done;
    this.#done = this.#fail = undefined;
    const reply: RawReply = this.#keep
      ? { status: this.#status, bytes: this.#bytes, text: this.#text }
      : this.#wantBody
        ? { status: this.#status, bytes: this.#bytes, body: Buffer.concat(this.#chunks).toString('utf8') }
        : { status: this.#status, bytes: this.#bytes };
    this.#chunks = [];
    done?.(reply);
  }
}
