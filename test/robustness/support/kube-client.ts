// A small HTTPS client for the robustness clients: JSON requests with a deadline (a request that
// times out or loses its connection rejects, and the caller records an unknown outcome) and watches
// read line by line. Each client has its own keep-alive agent, so a crash breaks its connections.
import { Agent, request, type RequestOptions } from 'node:https';
import type { Credentials } from './capstan-node.js';

export interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface WatchHandle {
  stop(): void;
  /** Resolves when the stream ends: 'closed' by the server, 'error' for a broken connection or a stop. */
  readonly done: Promise<'closed' | 'error'>;
}

export class KubeClient {
  readonly #creds: () => Credentials;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 4 });
  readonly #timeoutMs: number;

  constructor(creds: () => Credentials, timeoutMs: number) {
    this.#creds = creds;
    this.#timeoutMs = timeoutMs;
  }

  #options(c: Credentials, method: string, payload: string | undefined): RequestOptions {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${c.token}`,
    };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      // Node sends a DELETE's body with neither this nor chunked encoding unless told.
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return { method, headers, ca: c.ca, agent: this.#agent };
  }

  /** Rejects on a network error or after the deadline; any HTTP status resolves. */
  request(method: string, path: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // Asked once per request: credentials may name another server for each (a client roaming over replicas).
    const c = this.#creds();
    return new Promise((resolve, reject) => {
      const req = request(`${c.url}${path}`, this.#options(c, method, payload), (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('error', reject);
        res.on('end', () => {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON: the status code says enough
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.setTimeout(this.#timeoutMs, () => req.destroy(new Error(`timeout after ${this.#timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Streams a watch; `onEvent` gets each JSON line. A non-200 answer ends it as 'error'. */
  watch(path: string, onEvent: (ev: { type: string; object: Record<string, unknown> }) => void): WatchHandle {
    let settle: (how: 'closed' | 'error') => void = () => undefined;
    const done = new Promise<'closed' | 'error'>((resolve) => {
      settle = resolve;
    });
    const c = this.#creds();
    const req = request(`${c.url}${path}`, this.#options(c, 'GET', undefined), (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        settle('error');
        return;
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        buf += d;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line !== '') onEvent(JSON.parse(line) as { type: string; object: Record<string, unknown> });
        }
      });
      res.on('end', () => {
        settle('closed');
      });
      res.on('error', () => {
        settle('error');
      });
      res.on('close', () => {
        settle('error');
      });
    });
    req.on('error', () => {
      settle('error');
    });
    req.end();
    return {
      stop: () => {
        req.destroy();
        settle('error');
      },
      done,
    };
  }

  close(): void {
    this.#agent.destroy();
  }
}
