// Reads a request body up to the server's limit (kube's limitedReadBody, 3 MiB by default).
import { newBadRequest, newRequestEntityTooLarge } from '../../machinery/errors/index.js';
import type { ApiRequest } from '../http-types.js';

export const defaultMaxRequestBodyBytes = 3 * 1024 * 1024;

const clientGone = (): Error =>
  newBadRequest('the client closed the connection before the request body was read');

/**
 * The whole body; 413 `Request entity too large: limit is N` past `limit` bytes (no limit when
 * ≤ 0). An oversize body is drained rather than destroyed so the error can still be answered.
 * A request whose client went away before its body was read (it waited for its turn while the
 * connection closed, so its stream will never end) is refused at once, not left in flight.
 */
export function readBody(req: ApiRequest, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (req.destroyed && !req.readableEnded) {
      reject(clientGone());
      return;
    }
    const tooLarge = (): void => {
      req.removeAllListeners('data');
      req.resume();
      reject(newRequestEntityTooLarge(`limit is ${limit}`));
    };
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (limit > 0 && declared > limit) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (limit > 0 && size > limit) {
        tooLarge();
        return;
      }
      chunks.push(buf);
    });
    req.on('end', () => {
      // A body that came in one chunk (most do) is that chunk: node's parser gives each chunk memory
      // of its own. A copy of it lived as long as the request and so outlived the scavenges; under
      // 64-connection Pod PUTs it was a third of the external memory whose growth starts V8's major
      // GCs (docs/performance.md, issue 16).
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on('error', reject);
    // After 'end' or 'error' this settles nothing: the promise is already settled.
    req.on('close', () => {
      if (!req.readableEnded) reject(clientGone());
    });
  });
}
