// Serves /console/: the page and its hashed assets (public files with no data: served before
// authentication, as a login page must be), and POST /console/login, which trades a one-time code
// for a token. Everything else the console shows it reads through the API with the user's token.
import { statusError } from '../../machinery/errors/index.js';
import type { RequestURL } from '../../endpoints/request/request-url.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { writeJson, writeStatus } from '../http/respond.js';
import { loadConsoleAssets, type ConsoleAssets } from './console-assets.js';
import { consolePrefix } from './console-options.js';
import type { LoginCodes } from './login-codes.js';

export type ConsoleHandler = (req: HttpRequest, res: HttpResponse, url: RequestURL) => void;

export const isConsolePath = (pathname: string): boolean =>
  pathname === '/console' || pathname.startsWith(consolePrefix);

const maxCodeBytes = 1024;

function readBody(req: HttpRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > maxCodeBytes) reject(new Error('body too large'));
    });
    req.on('end', () => {
      resolve(body);
    });
    req.on('error', reject);
  });
}

async function login(codes: LoginCodes, req: HttpRequest, res: HttpResponse): Promise<void> {
  let code = '';
  try {
    const parsed = JSON.parse(await readBody(req)) as { code?: unknown };
    if (typeof parsed.code === 'string') code = parsed.code;
  } catch {
    code = '';
  }
  const token = code === '' ? undefined : codes.redeem(code);
  if (token === undefined) {
    writeStatus(
      res,
      statusError({
        reason: 'Unauthorized',
        message: 'this login link is not valid (each link works once)',
        details: {},
      }).status,
    );
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  writeJson(res, 200, { token });
}

function serveAsset(assets: ConsoleAssets, ex: { req: HttpRequest; res: HttpResponse; path: string }): void {
  const { req, res, path } = ex;
  const a = assets.get(path) ?? (path.startsWith('assets/') ? undefined : assets.get('index.html'));
  if (a === undefined) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.setHeader('Content-Type', a.type);
  res.setHeader('ETag', a.etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', a.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (!a.immutable) res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:");
  if (req.headers['if-none-match'] === a.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  if (req.method === 'HEAD') res.end();
  else res.end(a.body);
}

/** The handler; the assets are loaded (or built) on the first request and kept. */
export function consoleHandler(opts: {
  codes: LoginCodes;
  logError: (msg: string, err: unknown) => void;
}): ConsoleHandler {
  let assets: Promise<ConsoleAssets> | undefined;
  return (req, res, url) => {
    const method = req.method ?? 'GET';
    if (url.pathname === '/console') {
      res.statusCode = 301;
      res.setHeader('Location', consolePrefix);
      res.end();
      return;
    }
    const path = url.pathname.slice(consolePrefix.length);
    if (path === 'login' && method === 'POST') {
      void login(opts.codes, req, res);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.statusCode = 405;
      res.end();
      return;
    }
    assets ??= loadConsoleAssets();
    assets.then(
      (a) => {
        serveAsset(a, { req, res, path: path === '' ? 'index.html' : path });
      },
      (err: unknown) => {
        assets = undefined;
        opts.logError('unable to load the console', err);
        res.statusCode = 503;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(`the console is not available: ${(err as Error).message}\n`);
      },
    );
  };
}
