import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { closeParser, parseLabReport } from '../server/service/reader';
import { generateCorpus, type GroundTruth } from '../test/fixtures/lab-reports/generate';
import { scoreFile, total, type FileScore, type Totals } from '../test/fixtures/lab-reports/score';

/**
 * Lab-report parser scorer: generates the full corpus (test/fixtures/lab-reports), parses every
 * file and prints, per layout and overall, precision and recall of extracted values, LOINC
 * accuracy, metadata accuracy, the number of wrong values NOT sent to review (must be 0), files
 * that failed, and time per file. Figures, not a test; it exits 1 when a wrong value escaped
 * review so CI can notice.
 *
 *   npm run bench:parser
 *   BENCH_PARSER_ONLY=cp-text-1.pdf,io-image.jpg npm run bench:parser   # a subset
 *   BENCH_PARSER_VERBOSE=1 npm run bench:parser                        # every wrong value
 */

const dir = process.env.BENCH_PARSER_DIR ?? '.tmp/lab-report-corpus';
const only = process.env.BENCH_PARSER_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const verbose = !!process.env.BENCH_PARSER_VERBOSE;

const t0 = Date.now();
const truths: GroundTruth[] = await generateCorpus(dir, only);
console.log(`corpus: ${truths.length} files in ${dir} (generated in ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);

const scores: FileScore[] = [];
for (const truth of truths) {
  const bytes = new Uint8Array(await readFile(path.join(dir, truth.file)));
  const start = performance.now();
  const outcome = await parseLabReport(bytes);
  const ms = performance.now() - start;
  const score = scoreFile(truth, outcome, ms);
  scores.push(score);
  const status = score.wrongOutcome
    ? 'UNEXPECTED OUTCOME'
    : score.failed
      ? `failed as expected: ${score.failureReason}`
      : `${score.correct}/${score.gt} correct, ${score.extracted - score.correct} wrong (${score.wrong.filter((w) => !w.reasons.length).length} unreviewed), ${score.reviewedResults} sent to review`;
  console.log(`${truth.file.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(5)} s  ${status}`);
  if (verbose) {
    for (const w of score.wrong) {
      const exp = w.expected ? `${w.expected.test_name} = ${w.expected.value} ${w.expected.units}` : '(no such row)';
      console.log(`    ${w.reasons.length ? 'reviewed  ' : 'UNREVIEWED'} got ${w.got.test_name} = ${w.got.value} ${w.got.units ?? ''} [${w.got.loinc ?? '-'}]  expected ${exp}  ${w.reasons.map((r) => r.code).join(',')}`);
    }
    for (const m of score.metadataWrong) console.log(`    metadata ${m}`);
  }
}
await closeParser();

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const row = (label: string, t: Totals) =>
  [
    label.padEnd(16),
    String(t.files).padStart(5),
    String(t.gt).padStart(6),
    String(t.extracted).padStart(6),
    pct(t.correct, t.extracted).padStart(9),
    pct(t.correct, t.gt).padStart(8),
    pct(t.loincCorrect, t.gt).padStart(7),
    pct(t.metadataCorrect, t.metadataFields).padStart(9),
    String(t.wrong).padStart(6),
    String(t.wrongNotReviewed).padStart(10),
    pct(t.reviewedResults, t.extracted).padStart(9),
    String(t.failed + t.wrongOutcome).padStart(7),
    `${(t.ms / t.files / 1000).toFixed(2)} s`.padStart(9),
  ].join('  ');

console.log('\n' + ['group'.padEnd(16), 'files', '    gt', ' found', 'precision', '  recall', '  LOINC', ' metadata', ' wrong', 'unreviewed', 'in review', ' failed', '  s/file'].join('  '));
console.log('-'.repeat(128));
const groups: [string, (s: FileScore) => boolean][] = [
  ['layout cp', (s) => s.layout === 'cp'],
  ['layout io', (s) => s.layout === 'io'],
  ['layout gen', (s) => s.layout === 'gen'],
  ['text PDFs', (s) => s.kind === 'text-pdf'],
  ['images', (s) => s.kind === 'image'],
  ['scanned PDFs', (s) => s.kind === 'scanned-pdf'],
  ['must fail', (s) => s.expectedFailure],
];
for (const [label, pick] of groups) {
  const picked = scores.filter(pick);
  if (picked.length) console.log(row(label, total(picked)));
}
const all = total(scores);
console.log('-'.repeat(128));
console.log(row('overall', all));
console.log(`
precision = correct values / values found; recall = correct values / values printed; LOINC = printed
values whose result got the right code; "unreviewed" = wrong values without a review reason;
"in review" = share of found values with at least one review reason; failed = unexpected failures
or unexpected successes.`);

if (all.wrongNotReviewed > 0) {
  console.log(`\n${'!'.repeat(100)}\n!!! ${all.wrongNotReviewed} WRONG VALUE(S) WERE NOT SENT TO REVIEW: these would reach a patient unchecked.`);
  for (const s of scores) {
    for (const w of s.wrong.filter((x) => !x.reasons.length)) {
      const exp = w.expected ? `${w.expected.test_name} = ${w.expected.value} ${w.expected.units}` : 'no such row';
      console.log(`!!!   ${w.file}: got ${w.got.test_name} = ${w.got.value} ${w.got.units ?? ''}, expected ${exp}`);
    }
  }
  console.log('!'.repeat(100));
  process.exitCode = 1;
} else {
  console.log('\nwrong values not sent to review: 0');
}
if (all.failed + all.wrongOutcome > 0) process.exitCode = 1;
