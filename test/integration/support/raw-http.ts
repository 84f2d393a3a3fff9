// Requests over plain node:http that hand back the response body as the text the server wrote, for
// tests of member order and exact bytes (decoding the JSON would list index-like keys first), and
// the first line a watch streams. Requests still open when a test ends are destroyed by close().
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import type { CapstanServer } from '../../../src/index.js';
import { adminToken } from './https-call.js';

export interface RawRequest {
  readonly method?: string;
  /** Sent as JSON.stringify gives it. */
  readonly body?: unknown;
  /** Sent as it is (wins over body). */
  readonly text?: string;
  readonly contentType?: string;
}

const addedPrefix = '{"type":"ADDED","object":';

export class RawHttp {
  readonly #server: () => CapstanServer;
  readonly #open = new Set<ClientRequest>();

  /** `server` gives the server to call, started after this is made. */
  constructor(server: () => CapstanServer) {
    this.#server = server;
  }

  send = (path: string, opts: RawRequest = {}): ClientRequest => {
    const server = this.#server();
    const req = request(`${server.url}${path}`, {
      method: opts.method ?? 'GET',
      headers: {
        authorization: `Bearer ${adminToken(server)}`,
        'content-type': opts.contentType ?? 'application/json',
        accept: 'application/json',
      },
    });
    this.#open.add(req);
    req.on('close', () => {
      this.#open.delete(req);
    });
    req.end(opts.text ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)));
    return req;
  };

  /** The status and the whole body text. */
  call = (path: string, opts: RawRequest = {}): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = this.send(path, opts);
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
        });
      });
    });

  /** The first line a watch streams; the watch is closed then. */
  firstWatchLine = (path: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = this.send(path);
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          const end = text.indexOf('\n');
          if (end < 0) return;
          resolve(text.slice(0, end));
          req.destroy();
        });
      });
    });

  /** The object of the first event a watch streams, an ADDED one, as raw text. */
  firstWatchObject = async (path: string): Promise<string> => {
    const line = await this.firstWatchLine(path);
    assert.ok(line.startsWith(addedPrefix), line);
    return line.slice(addedPrefix.length, -1);
  };

  /** Destroys the requests still open. */
  close(): void {
    for (const req of this.#open) req.destroy();
  }
}
