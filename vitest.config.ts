import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import LongestFirstSequencer from './test/support/sequencer.ts';

// Limits for what never comes, not for how long things take: on this 2-core machine a second suite
// running beside this one can make a test take several times its quiet duration.
const TEST_TIMEOUT = 120_000;
const HOOK_TIMEOUT = 180_000;
// The store templates suites copy instead of migrating and seeding (test/support/templates.ts).
const STORE_TEMPLATES = ['test/support/storeTemplatesSetup.ts'];

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
    // Longest files first, across projects (test/support/durations.ts), so none runs alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'service',
          environment: 'node',
          include: ['test/service/**/*.test.ts', 'server/service/**/*.test.ts', 'server/store/**/*.test.ts', 'server/contract/**/*.test.ts'],
          globalSetup: STORE_TEMPLATES,
          testTimeout: TEST_TIMEOUT,
          hookTimeout: HOOK_TIMEOUT,
        },
      },
      {
        test: {
          name: 'bff',
          environment: 'node',
          include: ['test/bff/**/*.test.ts', 'server/bff/**/*.test.ts', 'server/*.test.ts'],
          globalSetup: STORE_TEMPLATES,
          testTimeout: TEST_TIMEOUT,
          hookTimeout: HOOK_TIMEOUT,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['test/ui/**/*.test.tsx', 'src/**/*.test.tsx', 'src/**/*.test.ts'],
          setupFiles: ['test/ui/setup.ts'],
          globalSetup: STORE_TEMPLATES,
          // One worker runs page file after page file without loading React, MUI, react-admin and
          // jsdom again for each: the whole ui project 524 -> 385 CPU s (docs/performance.md). Each
          // file still starts its own stack and renders a fresh app; test/ui/setup.ts installs its
          // patches once per window. LABDESK_TEST_ISOLATE=1 isolates every file again (to tell
          // whether a failure comes from a file run before it in the same worker).
          isolate: process.env.LABDESK_TEST_ISOLATE === '1',
          testTimeout: TEST_TIMEOUT,
          hookTimeout: HOOK_TIMEOUT,
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
