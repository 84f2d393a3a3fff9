// Reads a request body up to the server's limit (kube's limitedReadBody, 3 MiB by default).
import { newRequestEntityTooLarge } from '../../machinery/errors/index.js';
import type { ApiRequest } from '../http-types.js';

export const defaultMaxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * The whole body; 413 `Request entity too large: limit is N` past `limit` bytes (no limit when
 * ≤ 0). An oversize body is drained rather than destroyed so the error can still be answered.
 */
export function readBody(req: ApiRequest, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
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
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}
