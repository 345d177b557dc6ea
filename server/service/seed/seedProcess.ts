import { loadConfig } from '../../config';
import { repoPath } from '../../lib/entries';
import { seededRandom } from '../../lib/random';
import { openStore, type Store } from '../../store/db';
import { serviceSchema, type ServiceSchema } from '../db/schema';
import { syncProviderCatalogue } from '../domain/providers';
import { demoTeam, seedDemoIfEmpty } from './demo';
import { startLabCatalogue } from './labCatalogue';
import { seedDemoLabReports } from './demoLabReports';
import { seedDemoOrders } from './demoOrders';

const migrationsFolder = repoPath('server/service/db/migrations');

/** The catalogue, and the demo team with its orders and reports, each only where missing. */
export async function seedStore(db: Store<ServiceSchema>['db'], demoApiKey: string | undefined): Promise<void> {
  await syncProviderCatalogue(db);
  await startLabCatalogue(db); // the lab catalogue, and the demo team's lab accounts when it exists
  if (!demoApiKey) return;
  const started = Date.now();
  const seeded = await seedDemoIfEmpty(db, { apiKey: demoApiKey });
  const usersDone = Date.now();
  const demoTeamId = await demoTeam(db);
  if (demoTeamId) {
    await seedDemoOrders(db, demoTeamId, seededRandom(20261121)); // once: only when the team has no orders
    await seedDemoLabReports(db, demoTeamId); // once: parsed in the background like any upload
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  if (seeded) console.log(`service: seeded the demo team in ${s(Date.now() - started)} (users and sessions ${s(usersDone - started)}, orders and reports ${s(Date.now() - usersDone)})`);
}

/**
 * The first start's seeding runs in a process of its own (see main.ts): it builds hundreds of MB
 * of garbage and grows the embedded store's WebAssembly memory, which never shrinks, so the
 * service would otherwise serve at several times its resting size.
 */
export async function seedInOwnProcess() {
  const config = loadConfig();
  const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    await seedStore(store.db, config.DEMO_API_KEY);
  } finally {
    await store.close();
  }
}

