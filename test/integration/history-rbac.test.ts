// The history read under RBAC on the embedded store (a SQLite file): see history-rbac-cases.ts.
import { join } from 'node:path';
import { historyRbacSuite } from './history-rbac-cases.js';

historyRbacSuite((dir) => ({ storage: 'sqlite', dataDir: join(dir, 'data') }));
