// The history read under RBAC on the embedded store (a SQLite file): see history-rbac-cases.ts.
import { after, before } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { historyRbacCases, type HistoryRbacFixture } from './history-rbac-cases.js';

let server: CapstanServer | undefined;
let dir: string;
let fx: HistoryRbacFixture | undefined;
const userToken = 'developer-token';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-history-rbac-'));
  const tokenAuthFile = join(dir, 'tokens.csv');
  await writeFile(tokenAuthFile, `${userToken},developer,1001\n`);
  server = await startCapstan({
    storage: 'sqlite',
    dataDir: join(dir, 'data'),
    scheme: 'http',
    authorizationModes: ['RBAC'],
    tokenAuthFile,
  });
  fx = { url: server.url, adminToken: server.kubeConfig.users[0]?.user.token ?? '', userToken };
});
after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

historyRbacCases(() => {
  if (fx === undefined) throw new Error('the server did not start');
  return fx;
});
