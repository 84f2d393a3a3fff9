// A GenericAPIServer for tests: memory log sink, requests injected without sockets.
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { completeConfig, type Config } from '../config.js';
import { GenericAPIServer, type APIMount } from '../generic-api-server.js';
import { Logger, memorySink } from '../logging/logger.js';
import type { UserInfo } from '../../registry/rest/context.js';

export const adminToken = 'admin-token';
export const admin: UserInfo = { name: 'admin', groups: ['system:masters'] };

export interface TestServer {
  readonly server: GenericAPIServer;
  readonly logLines: string[];
  readonly request: (opts: InjectOptions | string) => Promise<Response>;
  /** A request with the admin bearer token. */
  readonly adminRequest: (opts: InjectOptions | string) => Promise<Response>;
}

export function testServer(opts: { config?: Partial<Config>; api?: APIMount } = {}): TestServer {
  const sink = memorySink();
  const config = completeConfig({
    listeners: [{ bindAddress: '127.0.0.1', port: 0 }],
    tokens: new Map([[adminToken, admin]]),
    logger: new Logger({ sink, verbosity: 4 }),
    ...opts.config,
  });
  const server = new GenericAPIServer(config);
  if (opts.api !== undefined) server.mountAPIHandler(opts.api);
  const request = (o: InjectOptions | string): Promise<Response> => inject(server.requestListener, o);
  const adminRequest = (o: InjectOptions | string): Promise<Response> => {
    const base: InjectOptions = typeof o === 'string' ? { url: o } : o;
    return request({ ...base, headers: { ...base.headers, authorization: `Bearer ${adminToken}` } });
  };
  return { server, logLines: sink.lines, request, adminRequest };
}
