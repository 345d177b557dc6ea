import { seedInOwnProcess } from './seedProcess';

/** The seeding process's entry (started by the service on a first start; see seedProcess.ts). */
seedInOwnProcess().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`service: seeding failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
