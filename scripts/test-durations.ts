/**
 * Regenerates test/support/durations.ts (the order test/support/sequencer.ts runs files in) from
 * vitest's JSON report:
 *
 *   npx vitest run --project service --project bff --project ui --reporter=json --outputFile=.tmp/t.json
 *   node --import tsx scripts/test-durations.ts .tmp/t.json
 *
 * A file's duration is from its first test's start to its last test's end (its suites' set-up
 * included as well as the report allows). A file that failed within a second (in its set-up) is not
 * measured and keeps its figure, if any; one that failed later is measured as it ran (its order
 * among the others is what matters). A file whose tests were all skipped (cluster.test.ts without
 * TEST_DATABASE_URL) keeps its figure too: it runs, and runs long, where PostgreSQL is given.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { durations as previous } from '../test/support/durations';

interface Report {
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    status: string;
    assertionResults: { ancestorTitles: string[]; status: string }[];
  }[];
}

const input = process.argv[2];
if (!input) {
  console.error('usage: node --import tsx scripts/test-durations.ts <vitest json report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
const root = process.cwd();

// The JSON report does not name a file's project: the projects' include patterns do (vitest.config.ts).
function projectOf(file: string): string {
  if (file.startsWith('test/ui/') || file.startsWith('src/')) return 'ui';
  if (file.startsWith('test/bff/') || file.startsWith('server/bff/') || /^server\/[^/]+\.test\.ts$/.test(file)) return 'bff';
  if (file.startsWith('test/e2e/')) return 'e2e';
  return 'service';
}

const measured: Record<string, number> = {};
for (const r of report.testResults) {
  if (r.status !== 'passed' && r.endTime - r.startTime < 1000) continue;
  if (r.assertionResults.length > 0 && r.assertionResults.every((a) => a.status === 'skipped' || a.status === 'pending')) continue;
  const file = path.relative(root, r.name).split(path.sep).join('/');
  measured[`${projectOf(file)}:${file}`] = Math.max(1, Math.round(r.endTime - r.startTime));
}
const merged = { ...previous, ...measured };
const lines = Object.entries(merged)
  .sort(([, a], [, b]) => b - a)
  .map(([key, ms]) => `  '${key}': ${ms},`);
const out = `/**
 * Measured durations (ms) of the test files, by \`project:path\`, longest first: the order
 * test/support/sequencer.ts runs them in. Regenerate with scripts/test-durations.ts.
 */
export const durations: Record<string, number> = {
${lines.join('\n')}
};
`;
writeFileSync(path.join(root, 'test/support/durations.ts'), out);
console.log(`${Object.keys(measured).length} files measured, ${Object.keys(merged).length} listed`);
