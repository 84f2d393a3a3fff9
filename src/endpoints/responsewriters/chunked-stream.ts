// A response whose length is not known when it starts (kube's StreamObject and watch server): the
// headers go at once, chunked on HTTP/1.1, then each piece as it comes, waiting for the socket to
// drain when it is full. Watches and a followed pods/log are written this way.
import { isHttp2, sendHeaders, writeChunk } from '../http-types.js';
import type { Exchange } from './exchange.js';
import { flushWarnings } from './write-response.js';

/** Sends the 200's headers (the warnings with them), without a length. */
export function beginChunkedStream(ex: Exchange, contentType: string): void {
  flushWarnings(ex);
  ex.res.setHeader('Content-Type', contentType);
  if (!isHttp2(ex.req)) ex.res.setHeader('Transfer-Encoding', 'chunked');
  sendHeaders(ex.res, 200);
}

// Resolves once the response can take more; false when the client went away first.
function drained(ex: Exchange, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      ex.res.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onDrain = (): void => {
      done(true);
    };
    const onAbort = (): void => {
      done(false);
    };
    ex.res.on('drain', onDrain);
    signal.addEventListener('abort', onAbort);
  });
}

/**
 * Writes one piece: true when the socket takes more at once, a promise of whether it drained when it
 * was full, false when the stream should stop (the client is gone). Not async, so that a caller
 * awaits only when the socket was full: a watch writes many events a second.
 */
export function writeStreamed(
  ex: Exchange,
  piece: { bytes: string | Buffer; signal: AbortSignal },
): boolean | Promise<boolean> {
  const { signal } = piece;
  if (signal.aborted || ex.res.destroyed) return false;
  return writeChunk(ex.res, piece.bytes) || drained(ex, signal);
}
