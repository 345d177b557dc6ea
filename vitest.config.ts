import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Every answer the service gives in a test is also checked against its contract (zod) and against
// what the compiled serializer wrote (server/service/plugins/compiledAnswers.ts). Set here, so the
// test workers and the servers the tests start inherit it.
process.env.LABDESK_CHECK_ANSWERS ??= '1';

export default defineConfig({
  test: {
    // Vitest's default (cores - 1) runs one file at a time on a 2-core machine, while most files
    // spend their time waiting on servers, the store and real-time polling: one worker more than
    // there are cores keeps both busy (615 s → 440 s for the suite here).
    maxWorkers: Math.max(2, availableParallelism() + 1),
    projects: [
      {
        test: {
          name: 'service',
          environment: 'node',
          include: ['test/service/**/*.test.ts', 'server/service/**/*.test.ts', 'server/store/**/*.test.ts', 'server/contract/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'bff',
          environment: 'node',
          include: ['test/bff/**/*.test.ts', 'server/bff/**/*.test.ts', 'server/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['test/ui/**/*.test.tsx', 'src/**/*.test.tsx', 'src/**/*.test.ts'],
          setupFiles: ['test/ui/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          // One running app for the whole run (see test/e2e/globalSetup.ts).
          globalSetup: ['test/e2e/globalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
