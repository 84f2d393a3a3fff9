// HTTP/1.1 requests that ask to switch protocols (`Connection: Upgrade`: websockets, SPDY), which
// Node hands to a server's 'upgrade' listener with the bare socket instead of a response. They go
// through the same filters and handlers as any request, with a response written on that socket and
// the connection closed after it; a handler that proxies them (the aggregator's, as kube's
// UpgradeAwareHandler) takes the socket over once the backend has switched protocols.
import { ServerResponse, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HttpRequest, HttpResponse } from './types.js';

/** The connection of an upgrade request: its socket and what the client sent after the head. */
export interface UpgradeConnection {
  readonly socket: Socket;
  readonly head: Buffer;
}

const connectionOf = Symbol('capstan.upgradeConnection');
type UpgradeRequest = IncomingMessage & { [connectionOf]?: UpgradeConnection | undefined };

/** The 'upgrade' listener that serves such requests with `onRequest`. */
export function upgradeListener(
  onRequest: (req: HttpRequest, res: HttpResponse) => void,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    // Node's servers hand over their net.Socket (a TLSSocket is one).
    if (!(socket instanceof Socket)) {
      socket.destroy();
      return;
    }
    // Bytes the client sends before an answer wait for whoever takes the connection over.
    socket.pause();
    (req as UpgradeRequest)[connectionOf] = { socket, head };
    const res = new ServerResponse(req);
    // The parser has let go of the socket: one response, then the connection ends.
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => {
      socket.end();
      socket.resume();
    });
    socket.once('error', () => {
      socket.destroy();
    });
    onRequest(req, res);
  };
}

/** The connection of `req` when it is an upgrade request that nothing has taken over yet. */
export function upgradeConnection(req: HttpRequest): UpgradeConnection | undefined {
  return (req as UpgradeRequest)[connectionOf];
}

/**
 * Takes the connection over: from now on the caller writes on the socket itself, and the request's
 * response must not be used (it is detached, and its status set to 101 for the logs and metrics).
 */
export function hijack(req: HttpRequest, res: HttpResponse): UpgradeConnection {
  const conn = (req as UpgradeRequest)[connectionOf];
  if (conn === undefined || !(res instanceof ServerResponse)) throw new Error('not an upgrade request');
  (req as UpgradeRequest)[connectionOf] = undefined;
  res.statusCode = 101;
  res.detachSocket(conn.socket);
  return conn;
}
