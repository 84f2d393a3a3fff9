// JSON requests as the admin, for the test API's installers: one call, and a create that updates
// the object of the same name when it exists (as `kubectl apply` would end up, without merging).
import type { KubeObject } from '../../api/meta.js';
import { sendRaw, type ClientTarget } from './http-client.js';

export interface JSONReply {
  readonly code: number;
  readonly obj: KubeObject & Record<string, unknown>;
}

export async function adminCall(
  t: ClientTarget,
  req: { method: string; path: string; body?: unknown },
): Promise<JSONReply> {
  const res = await sendRaw(t, {
    method: req.method,
    path: req.path,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    ...(req.body === undefined ? {} : { body: Buffer.from(JSON.stringify(req.body)) }),
  });
  return { code: res.code, obj: JSON.parse(res.body.toString('utf8')) as JSONReply['obj'] };
}

/** Creates `obj` in the collection at `path`, or replaces the one of its name; throws what failed. */
export async function createOrReplace(
  t: ClientTarget,
  req: { path: string; obj: KubeObject },
): Promise<void> {
  const { path, obj } = req;
  const name = obj.metadata?.name ?? '';
  let res = await adminCall(t, { method: 'POST', path, body: obj });
  if (res.code === 409) {
    const current = await adminCall(t, { method: 'GET', path: `${path}/${name}` });
    const resourceVersion = current.obj.metadata?.resourceVersion;
    res = await adminCall(t, {
      method: 'PUT',
      path: `${path}/${name}`,
      body: { ...obj, metadata: { ...obj.metadata, resourceVersion } },
    });
  }
  if (res.code >= 300)
    throw new Error(`installing ${obj.kind ?? ''} ${JSON.stringify(name)}: ${String(res.obj['message'])}`);
}
