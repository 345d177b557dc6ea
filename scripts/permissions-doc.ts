/** Writes docs/permissions.md from the role matrix and the BFF's route table (an in-memory store). */
import fs from 'node:fs';
import { buildBffApp } from '../server/bff/app';
import { bffSchema } from '../server/bff/db/schema';
import { permissionTable } from '../server/bff/docs/permissionTable';
import { repoPath } from '../server/lib/entries';
import { openStore } from '../server/store/db';

const store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: repoPath('server/bff/db/migrations') });
const app = await buildBffApp({ db: store.db, serviceBaseUrl: 'http://127.0.0.1:1', serviceApiKey: 'unused', sessionSecret: 'x'.repeat(32) });
await app.ready();
fs.writeFileSync(repoPath('docs/permissions.md'), permissionTable(app.routeAccess));
await app.close();
await store.close();
console.log('wrote docs/permissions.md');
