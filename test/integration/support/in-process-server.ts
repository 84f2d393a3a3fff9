// A Capstan control plane in this process from flag-shaped options, on plain HTTP on loopback, with
// the admin token for requests: for tests of flags that startCapstan does not expose.
import { assembleBuiltinAPI } from '../../../src/controlplane/api-assembly.js';
import { ControlPlane } from '../../../src/controlplane/instance.js';
import { memorySink } from '../../../src/server/logging/logger.js';
import { completeServerRunOptions } from '../../../src/server/options/complete.js';
import {
  defaultServerRunOptions,
  type ServerRunOptions,
} from '../../../src/server/options/server-run-options.js';

export interface InProcessServer {
  readonly url: string;
  readonly logLines: readonly string[];
  request(path: string, init?: InProcessRequest): Promise<{ status: number; body: string; headers: Headers }>;
  json<T = Record<string, unknown>>(path: string, init?: InProcessRequest): Promise<T>;
  stop(): Promise<void>;
}

export interface InProcessRequest {
  readonly method?: string;
  readonly body?: unknown;
  /** Sent besides the admin token and the JSON Content-Type (which they may replace). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as is instead of `body` as JSON (a protobuf or YAML body). */
  readonly rawBody?: Uint8Array | string;
}

export async function startInProcess(configure: (o: ServerRunOptions) => void): Promise<InProcessServer> {
  const o = defaultServerRunOptions();
  o.securePort = -1;
  o.insecurePort = 1;
  configure(o);
  const sink = memorySink();
  const options = await completeServerRunOptions(o, { logSink: sink });
  const controlPlane = await ControlPlane.create({
    options,
    assemble: assembleBuiltinAPI,
    listeners: [{ bindAddress: '127.0.0.1', port: 0 }],
  });
  try {
    await controlPlane.start();
    await controlPlane.ready;
  } catch (err) {
    await controlPlane.close();
    throw err;
  }
  const request = async (
    path: string,
    init: InProcessRequest = {},
  ): Promise<{ status: number; body: string; headers: Headers }> => {
    const res = await fetch(`${controlPlane.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${options.adminToken}`,
        'content-type': 'application/json',
        ...init.headers,
      },
      ...(init.rawBody !== undefined
        ? { body: init.rawBody }
        : init.body === undefined
          ? {}
          : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: await res.text(), headers: res.headers };
  };
  return {
    url: controlPlane.url,
    logLines: sink.lines,
    request,
    json: async <T>(path: string, init: InProcessRequest = {}): Promise<T> => {
      const res = await request(path, init);
      if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${res.body}`);
      return JSON.parse(res.body) as T;
    },
    stop: () => controlPlane.close(),
  };
}
