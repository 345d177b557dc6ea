/**
 * `npm run import:timeseries -- <file.csv|file.json>`: imports wearable mindfulness sessions into
 * the service through its bulk endpoint (POST /v2/timeseries/mindfulness_minutes/import).
 *
 * The file is read twice, in bounded memory: first every point is checked against the endpoint's
 * own schema (a bad one stops the import before anything is sent, naming its line), then the points
 * go in batches of IMPORT_BATCH (default 5,000; at most the endpoint's limit), one request in flight
 * while the next batch is read. Each batch is stored all or nothing, and points already stored are
 * skipped, so an interrupted import is finished by running it again.
 *
 *   SERVICE_BASE_URL   default http://127.0.0.1:8787
 *   SERVICE_API_KEY    the team's key; else DEMO_API_KEY; else the demo key in DATA_DIR/secrets.json
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TIMESERIES_IMPORT_MAX_POINTS, TimeseriesImportPoint } from '../server/contract/timeseries';
import { BadInput, readPoints, type FilePoint } from './timeseriesFile';

export interface ImportOptions {
  baseUrl: string;
  apiKey: string;
  batchSize?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface ImportSummary {
  rows: number;
  imported: number;
  skipped: number;
  seconds: number;
  rowsPerSecond: number;
}

/** Every point valid, or a BadInput naming the first bad line. Returns the number of points. */
export async function checkFile(file: string): Promise<number> {
  let rows = 0;
  for await (const { line, point } of readPoints(file)) {
    const parsed = TimeseriesImportPoint.safeParse(point);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BadInput(line, `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
    }
    rows++;
  }
  if (rows === 0) throw new Error(`${file}: no points to import`);
  return rows;
}

/** The line of the point a service error names: `loc` ["body","points",i,…] or "points[i]" in a sentence. */
function failedLine(detail: unknown, batch: FilePoint[]): { line?: number; message: string } {
  if (Array.isArray(detail) && detail.length) {
    const d = detail[0] as { loc?: unknown[]; msg?: string };
    const index = d.loc?.[2];
    const field = d.loc?.slice(3).join('.');
    return { line: typeof index === 'number' ? batch[index]?.line : undefined, message: `${field ? `${field}: ` : ''}${d.msg ?? JSON.stringify(d)}` };
  }
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  const m = /points\[(\d+)\]/.exec(text);
  return { line: m ? batch[Number(m[1])]?.line : undefined, message: text };
}

export async function importTimeseriesFile(file: string, opts: ImportOptions): Promise<ImportSummary> {
  const batchSize = Math.min(opts.batchSize ?? 5000, TIMESERIES_IMPORT_MAX_POINTS);
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/v2/timeseries/mindfulness_minutes/import`;
  const started = performance.now();
  const rows = await checkFile(file);
  opts.log?.(`${rows} points checked; importing…`);
  let imported = 0;
  let skipped = 0;
  let sent = 0;
  const send = async (batch: FilePoint[]) => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': opts.apiKey },
        body: JSON.stringify({ points: batch.map((p) => p.point) }),
      });
    } catch (err) {
      throw new Error(`the service at ${opts.baseUrl} did not answer (${err instanceof Error ? (err.cause as Error | undefined)?.message ?? err.message : String(err)})`);
    }
    const body = (await res.json().catch(() => null)) as { imported?: number; skipped?: number; detail?: unknown } | null;
    if (!res.ok) {
      const { line, message } = failedLine(body?.detail, batch);
      const where = line ? `line ${line}: ` : '';
      const done = sent ? ` (${imported} points of earlier batches were imported; run the import again to finish it)` : '';
      throw new Error(`${where}the service answered ${res.status}: ${message}${done}`);
    }
    imported += body?.imported ?? 0;
    skipped += body?.skipped ?? 0;
    sent += batch.length;
    opts.log?.(`${sent}/${rows} sent`);
  };
  let inFlight: Promise<void> | null = null;
  let batch: FilePoint[] = [];
  for await (const p of readPoints(file)) {
    batch.push(p);
    if (batch.length === batchSize) {
      await inFlight;
      inFlight = send(batch);
      inFlight.catch(() => {}); // awaited below; no unhandled rejection meanwhile
      batch = [];
    }
  }
  await inFlight;
  if (batch.length) await send(batch);
  const seconds = (performance.now() - started) / 1000;
  return { rows, imported, skipped, seconds, rowsPerSecond: rows / seconds };
}

function apiKeyFromEnv(): string | undefined {
  if (process.env.SERVICE_API_KEY) return process.env.SERVICE_API_KEY;
  if (process.env.DEMO_API_KEY) return process.env.DEMO_API_KEY;
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(process.env.DATA_DIR ?? 'data', 'secrets.json'), 'utf8')) as { DEMO_API_KEY?: string };
    return saved.DEMO_API_KEY;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('usage: npm run import:timeseries -- <file.csv|file.json>');
    return 2;
  }
  if (!fs.existsSync(file)) {
    console.error(`import: ${file}: no such file`);
    return 2;
  }
  const apiKey = apiKeyFromEnv();
  if (!apiKey) {
    console.error('import: set SERVICE_API_KEY (or DEMO_API_KEY) to the team’s API key');
    return 2;
  }
  const baseUrl = process.env.SERVICE_BASE_URL ?? 'http://127.0.0.1:8787';
  const batchSize = process.env.IMPORT_BATCH ? Number(process.env.IMPORT_BATCH) : undefined;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    console.error('import: IMPORT_BATCH must be a positive whole number');
    return 2;
  }
  try {
    const s = await importTimeseriesFile(file, { baseUrl, apiKey, batchSize });
    console.log(`imported ${s.imported} of ${s.rows} rows (${s.skipped} already stored) in ${s.seconds.toFixed(1)} s: ${Math.round(s.rowsPerSecond)} rows/s`);
    return 0;
  } catch (err) {
    console.error(`import: ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
