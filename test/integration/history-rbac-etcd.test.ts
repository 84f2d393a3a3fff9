// The history read under RBAC on etcd (the console asked for, as it is off there by default): see
// history-rbac-cases.ts.
import { after, before } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { describeWithEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-etcd.js';
import { historyRbacCases, type HistoryRbacFixture } from './history-rbac-cases.js';

const userToken = 'developer-token';

describeWithEtcd('the history read under RBAC on etcd', (etcd) => {
  let server: CapstanServer | undefined;
  let dir: string;
  let fx: HistoryRbacFixture | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-history-rbac-etcd-'));
    const tokenAuthFile = join(dir, 'tokens.csv');
    await writeFile(tokenAuthFile, `${userToken},developer,1001\n`);
    server = await startCapstan({
      storage: 'etcd3',
      etcdServers: etcd.etcd().endpoints,
      etcdPrefix: '/history-rbac',
      console: true,
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
});
