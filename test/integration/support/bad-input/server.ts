// One in-process control plane for a bad-input test file: requests are injected without sockets
// (light-my-request), watches go over loopback so they can be abandoned once their status is known.
import { inject } from 'light-my-request';
import { assembleBuiltinAPI } from '../../../../src/controlplane/api-assembly.js';
import { ControlPlane } from '../../../../src/controlplane/instance.js';
import { memorySink } from '../../../../src/server/logging/logger.js';
import { completeServerRunOptions } from '../../../../src/server/options/complete.js';
import { defaultServerRunOptions } from '../../../../src/server/options/server-run-options.js';

/** One request as generated: everything needed to print it and send it again. */
export interface BadRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Watches are sent over a socket and dropped once the status line arrived. */
  readonly watch?: boolean;
  /** What the generator meant, for the failure report. */
  readonly label: string;
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

export interface BadInputServer {
  send(r: BadRequest, timeoutMs: number): Promise<Answer>;
  getJSON<T = Record<string, unknown>>(path: string): Promise<T>;
  readonly logLines: readonly string[];
  stop(): Promise<void>;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ms} ms: ${what}`));
    }, ms);
  });
  return Promise.race([p, expired]).finally(() => {
    clearTimeout(timer);
  });
}

export async function startBadInputServer(): Promise<BadInputServer> {
  const o = defaultServerRunOptions();
  o.securePort = -1;
  o.insecurePort = 1;
  o.storage.backend = 'memory';
  const sink = memorySink();
  const options = await completeServerRunOptions(o, { logSink: sink });
  const cp = await ControlPlane.create({
    options,
    assemble: assembleBuiltinAPI,
    listeners: [{ bindAddress: '127.0.0.1', port: 0 }],
  });
  try {
    await cp.start();
    await cp.ready;
  } catch (err) {
    await cp.close();
    throw err;
  }
  const auth = { authorization: `Bearer ${options.adminToken}` };
  const listener = cp.server.requestListener;

  const injectOne = async (r: BadRequest): Promise<Answer> => {
    const res = await inject(listener, {
      method: r.method as 'GET',
      url: r.query === '' ? r.path : `${r.path}?${r.query}`,
      headers: { ...auth, ...r.headers },
      ...(r.body === undefined ? {} : { payload: r.body }),
    });
    return { status: res.statusCode, body: res.body };
  };

  const watchOne = async (r: BadRequest, timeoutMs: number): Promise<Answer> => {
    const abort = new AbortController();
    const url = `${cp.url}${r.path}?${r.query}`;
    try {
      const res = await withTimeout(
        fetch(url, { method: r.method, headers: { ...auth, ...r.headers }, signal: abort.signal }),
        timeoutMs,
        url,
      );
      // A failed watch answers with a Status body; a started one streams: read no further.
      const body = res.status === 200 ? '' : await withTimeout(res.text(), timeoutMs, url);
      return { status: res.status, body };
    } finally {
      abort.abort();
    }
  };

  return {
    send: (r, timeoutMs) =>
      r.watch === true ? watchOne(r, timeoutMs) : withTimeout(injectOne(r), timeoutMs, r.label),
    getJSON: async <T>(path: string): Promise<T> => {
      const res = await injectOne({ method: 'GET', path, query: '', label: path });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 300)}`);
      return JSON.parse(res.body) as T;
    },
    logLines: sink.lines,
    stop: () => cp.close(),
  };
}
