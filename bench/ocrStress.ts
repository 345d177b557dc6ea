import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { closeParser, parseLabReport } from '../server/service/reader';
import { buildDoc, DOCS, type Rendering } from '../test/fixtures/lab-reports/generate';
import { createMeasure } from '../test/fixtures/lab-reports/render';
import { f1, median, scoreFile, total, type FileScore } from '../test/fixtures/lab-reports/score';

/**
 * The image path under renderings it was not tuned on: the tuning split's clean page images drawn
 * again at other resolutions, in grey or coloured ink, with ruled cells or zebra stripes, turned a
 * few degrees, blurred or compressed hard, and read and scored against the same ground truth. A
 * reading that holds on the clean page and drops on one of these leans on how the tuning files
 * happen to be drawn, not on what the page says. Tuning files only (docs/reader-corpus.md).
 *
 *   npm run -s bench:ocrstress                                         # every variant, eight layouts
 *   STRESS_VARIANTS=grid,zebra STRESS_LAYOUTS=cp,lis npm run -s bench:ocrstress
 *   STRESS_VERBOSE=1 ...                                                # every miss
 */

const VARIANTS: Rendering[] = [
  { name: 'clean-200', dpi: 200, format: 'png' },
  { name: 'dpi-150', dpi: 150, format: 'png' },
  { name: 'grey-ink', dpi: 200, ink: 115, format: 'png' },
  { name: 'blue-ink', dpi: 200, inkColour: [20, 50, 150], format: 'png' },
  { name: 'red-ink', dpi: 200, inkColour: [170, 20, 20], format: 'png' },
  { name: 'grid', dpi: 200, grid: true, format: 'png' },
  { name: 'zebra', dpi: 200, zebra: 0.86, format: 'png' },
  { name: 'rotate-3', dpi: 200, rotate: 3, format: 'png' },
  { name: 'rotate-neg2', dpi: 200, rotate: -2, noise: 5, format: 'jpeg', quality: 70 },
  { name: 'blur-1.6', dpi: 200, blur: 1.6, format: 'png' },
  { name: 'jpeg-q40', dpi: 170, format: 'jpeg', quality: 40 },
];

const DEFAULT_LAYOUTS = ['cp', 'lis', 'dense', 'si', 'refcols', 'india', 'espanol', 'stacked'];
const list = (v: string | undefined) => v?.split(',').map((s) => s.trim()).filter(Boolean);
const layouts = list(process.env.STRESS_LAYOUTS) ?? DEFAULT_LAYOUTS;
const variantNames = list(process.env.STRESS_VARIANTS);
const verbose = !!process.env.STRESS_VERBOSE;
const keep = process.env.STRESS_KEEP_DIR;

const specs = DOCS.filter((d) => (d.split ?? 'tune') === 'tune' && d.kind === 'image' && d.degrade?.name === 'clean' && layouts.includes(d.layout));
const variants = VARIANTS.filter((v) => !variantNames || variantNames.includes(v.name));
const measure = await createMeasure();
if (keep) await mkdir(keep, { recursive: true });

const byVariant = new Map<string, FileScore[]>();
for (const variant of variants) {
  for (const spec of specs) {
    const { bytes, truth } = await buildDoc(spec, measure, variant);
    const file = `${spec.file.replace(/\.png$/, '')}--${variant.name}.${variant.format === 'png' ? 'png' : 'jpg'}`;
    if (keep) await writeFile(path.join(keep, file), bytes);
    const start = performance.now();
    const outcome = await parseLabReport(bytes);
    const ms = performance.now() - start;
    const score = scoreFile({ ...truth, file }, outcome, ms);
    byVariant.set(variant.name, [...(byVariant.get(variant.name) ?? []), score]);
    const status = score.failed ? `failed: ${score.failureReason}` : `${score.correct}/${score.gt} correct, ${score.extracted - score.correct} wrong (${score.wrong.filter((w) => !w.reasons.length).length} unreviewed), metadata ${score.metadataCorrect}/${score.metadataFields}`;
    console.log(`${file.padEnd(44)} ${(ms / 1000).toFixed(1).padStart(5)} s  ${status}`);
    if (verbose) for (const w of score.wrong) console.log(`    wrong ${JSON.stringify(w)}`);
    if (verbose && (score.metadataWrong.length || score.metadataExtWrong.length)) console.log(`    metadata wrong: ${[...score.metadataWrong, ...score.metadataExtWrong].join('; ')}`);
    if (verbose) for (const m of score.missed) console.log(`    missed ${JSON.stringify(m)}`);
  }
}
await closeParser();

const pct = (x: number | undefined) => (x === undefined ? '-' : `${(100 * x).toFixed(1)}%`);
console.log(`\n${'variant'.padEnd(14)} files    gt found     F1 ranges   meta unrev med s/pg`);
let unreviewed = 0;
for (const [name, scores] of byVariant) {
  const t = total(scores);
  unreviewed += t.wrongNotReviewed;
  const sPerPage = median(t.secondsPerPage);
  console.log(
    `${name.padEnd(14)} ${String(scores.length).padStart(5)} ${String(t.gt).padStart(5)} ${String(t.extracted).padStart(5)} ${pct(f1(t)).padStart(6)} ${pct(t.rangeScored ? t.rangeCorrect / t.rangeScored : undefined).padStart(6)} ${pct(t.metadataFields ? t.metadataCorrect / t.metadataFields : undefined).padStart(6)} ${String(t.wrongNotReviewed).padStart(5)} ${(sPerPage ?? 0).toFixed(2).padStart(7)} s`,
  );
}
if (unreviewed) {
  console.log(`\n${unreviewed} wrong values were not sent to review`);
  process.exitCode = 1;
}
