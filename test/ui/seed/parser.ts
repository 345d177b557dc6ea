/**
 * Seeding parser jobs in the real service, for the page tests. A job is uploaded through the
 * service's own domain (`createParsingJob`: the file, the job and its queued parse, exactly as the
 * upload route stores them), and its parse is run by the service's own runner (`runParseJob`)
 * with a stand-in reader that answers a given outcome, at once or step by step, instead of a
 * reader process doing OCR. Each page test that needs a list of its own gets a team of its own
 * (`parserTeam`): a console on a BFF holding that team's key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs, parsingJobs } from '../../../server/service/db/schema';
import { createParsingJob, PARSE_JOB_KIND } from '../../../server/service/domain/parsingJobs/create';
import { runParseJob, type Parse } from '../../../server/service/domain/parsingJobs/run';
import { createTeam } from '../../../server/service/domain/teams';
import { ensureDemoLabAccounts } from '../../../server/service/seed/labCatalogue';
import type { ParseOutcome } from '../../../server/service/reader/types';
import type { Team, UserInput } from '../../bff/harness';
import type { LabServiceFixture } from '../../bff/ordersFixture';
import type { RealStack } from '../realStack';
import { endToEndHeaders } from '../../support/proxyHeaders';

/** The smallest PNG there is (1×1, transparent): 70 bytes. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** A one-page PDF with no text (the reader is a stand-in here: only the service's content check reads it). */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

const loinc = (code: string, name: string, confidence: number) => ({ loinc_code: code, loinc_name: name, display_name: name, confidence_score: confidence });

/** A report read with doubts of every kind: value, unit, LOINC, range, and a code the dashboard does not know. */
export const DOUBTFUL_REPORT = {
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1980-04-02', lab_name: 'Quest Diagnostics', date_collected: '2026-05-02', specimen_number: 'SP-1001' },
    results: [
      { test_name: 'Glucose', value: '95', type: 'numeric', units: 'mg/dL', min_reference_range: 70, max_reference_range: 99, interpretation: 'normal', is_above_max_range: false, is_below_min_range: false, loinc_matches: [loinc('2345-7', 'Glucose', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Potassium', value: '45', type: 'numeric', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.1, interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false, loinc_matches: [loinc('2823-3', 'Potassium', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Sodium', value: '140', type: 'numeric', units: 'mmol/', min_reference_range: 136, max_reference_range: 145, interpretation: 'normal', loinc_matches: [loinc('2951-2', 'Sodium', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Hemoglobin A1c', value: '5.6', type: 'percentage', units: '%', min_reference_range: 4, max_reference_range: 5.6, interpretation: 'normal', loinc_matches: [loinc('4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood', 0.72), loinc('17856-6', 'Hemoglobin A1c/Hemoglobin.total in Blood by HPLC', 0.65)] },
      { test_name: 'TSH', value: '2.1', type: 'numeric', units: 'mIU/L', min_reference_range: 4.5, max_reference_range: 0.4, interpretation: 'unknown', loinc_matches: [loinc('3016-3', 'Thyrotropin', 1)] },
      { test_name: 'Vitamin D', value: '30', type: 'numeric', units: 'ng/mL', min_reference_range: 30, max_reference_range: 100, interpretation: 'borderline_watch', loinc_matches: [loinc('1989-3', '25-Hydroxyvitamin D3', 0.95)] },
    ],
  },
  review_reasons: {
    results: [
      [],
      [{ code: 'decimal_suspect', message: '45 has no decimals; Potassium is normally printed with 1.' }],
      [{ code: 'unexpected_unit', message: 'mmol/ is not a unit Sodium is reported in.' }],
      [{ code: 'loinc_low_confidence', message: 'The test name was matched to Hemoglobin A1c only approximately.' }],
      [{ code: 'range_suspect', message: 'The reference range 4.5-0.4 runs backwards.' }],
      [{ code: 'mystery_check', message: 'Something this dashboard has never heard of.' }],
    ],
    report: [{ code: 'ocr_used_low_quality', message: 'The scan was read with low overall confidence (62%).' }],
  },
};

/** What the stand-in reader finds in a doubtful report: DOUBTFUL_REPORT, to be reviewed. */
export const doubtful = (): ParseOutcome =>
  structuredClone({
    ok: true,
    data: DOUBTFUL_REPORT.data,
    reviewReasons: DOUBTFUL_REPORT.review_reasons,
    needsReview: true,
    stats: { pages: 1, ocrPages: 1, meanOcrConfidence: 62 },
  }) as ParseOutcome;

/** A report read without doubt: the job completes by itself (unless a review was asked for). */
export const clean = (): ParseOutcome => ({
  ok: true,
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1980-04-02', lab_name: 'Quest Diagnostics' },
    results: [{ test_name: 'Glucose', value: '95', type: 'numeric', units: 'mg/dL', min_reference_range: 70, max_reference_range: 99, interpretation: 'normal' }],
  },
  reviewReasons: { results: [[]], report: [] },
  needsReview: false,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
});

export interface ParserTeam {
  team: Team;
  /** A BFF app holding the team's key: `stack.useBffApp(app)` opens the team's console. */
  app: FastifyInstance;
  /** The team's patients' user ids, in the order given. */
  patients: string[];
}

/**
 * A team of its own (its own jobs, queue and patients), with a BFF app holding its key. Each patient
 * has an order naming them Ada Lovelace, born 1980-04-02, as the stand-in reports do: a report the
 * service cannot compare with any order waits for a reviewer who confirms it, however clean.
 */
export async function parserTeam(stack: RealStack, name: string, patients: UserInput[] = [{ clientUserId: 'pt-7f3a2c91' }]): Promise<ParserTeam> {
  const team = await createTeam(stack.service.db, name);
  const ids = await stack.service.addUsers(team, patients);
  await ensureDemoLabAccounts(stack.service.db, team.teamId);
  for (const id of ids) await stack.service.placeOrder(team, id);
  const app = await stack.bff.buildApp({ serviceApiKey: team.apiKey });
  return { team, app, patients: ids };
}

export interface UploadInput {
  name?: string;
  bytes?: Buffer;
  reviewRequested?: boolean;
}

/** Uploads a report as the service's upload route stores it: queued, its parse waiting for a reader. Returns the job id. */
export async function uploadReport(service: LabServiceFixture, team: Team, userId: string, input: UploadInput = {}): Promise<string> {
  // A copy in this realm's Uint8Array: in a jsdom worker the global Uint8Array is jsdom's, and
  // file-type (the service's content check) and PGlite take a Node Buffer for no byte array.
  const bytes = new Uint8Array(input.bytes ?? TINY_PNG) as Buffer;
  const job = await createParsingJob(service.db, team.teamId, userId, { bytes, filename: input.name ?? 'report.png' }, input.reviewRequested ?? false);
  return job.id;
}

async function queuedParse(service: LabServiceFixture, jobId: string) {
  const [row] = await service.db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${jobId}`));
  if (!row) throw new Error(`no queued parse for job ${jobId}`);
  return row;
}

/** Runs the job's queued parse with a stand-in reader, and marks the parse done as a reader process would. */
async function runQueued(service: LabServiceFixture, jobId: string, parse: Parse) {
  const row = await queuedParse(service, jobId);
  await runParseJob(service.db, row.payload, { jobId: row.id, attempt: 1 }, parse);
  await service.db.update(jobs).set({ doneAt: sql`now()`, lockedUntil: null }).where(eq(jobs.id, row.id));
}

/** Reads the job's report at once: the reader answers `outcome`. */
export async function parseNow(service: LabServiceFixture, jobId: string, outcome: ParseOutcome): Promise<void> {
  await runQueued(service, jobId, async () => outcome);
}

/** Uploads a report and reads it at once (default: DOUBTFUL_REPORT, so it waits for review). Returns the job id. */
export async function readReport(service: LabServiceFixture, team: Team, userId: string, input: UploadInput = {}, outcome: ParseOutcome = doubtful()): Promise<string> {
  const id = await uploadReport(service, team, userId, input);
  await parseNow(service, id, outcome);
  return id;
}

export interface ParseInProgress {
  /** The reader reports `fraction` done; resolves once the service has stored it. */
  progress(fraction: number): Promise<void>;
  /** The reader answers `outcome`; resolves once the job is settled. */
  finish(): Promise<void>;
}

/** Starts reading the job's report with a reader the test moves on step by step. */
export function startParse(service: LabServiceFixture, jobId: string, outcome: ParseOutcome): ParseInProgress {
  let report: ((fraction: number) => void) | undefined;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let began!: () => void;
  const started = new Promise<void>((resolve) => (began = resolve));
  const running = runQueued(service, jobId, async (_bytes, opts) => {
    report = (fraction) => opts.onProgress?.(fraction, 'read');
    began();
    await gate;
    return outcome;
  });
  running.catch(() => began()); // surfaced by finish()
  return {
    async progress(fraction) {
      await started;
      report?.(fraction);
      for (let i = 0; i < 200; i++) {
        const [row] = await service.db.select({ progress: parsingJobs.progress }).from(parsingJobs).where(eq(parsingJobs.id, jobId));
        if ((row?.progress ?? 0) >= Math.min(0.99, fraction)) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`the progress of ${jobId} never reached ${fraction}`);
    },
    async finish() {
      release();
      await running;
    },
  };
}

/** Sets columns of a job row the service's flow cannot reach on demand (a stage from a newer service). */
export async function setJobStage(service: LabServiceFixture, jobId: string, stage: string): Promise<void> {
  await service.db.update(parsingJobs).set({ stage }).where(eq(parsingJobs.id, jobId));
}

/** The team's queued parses: their uploads' waits (by `waitedSeconds` for the oldest) and one taken by a reader. */
export async function shapeQueue(service: LabServiceFixture, jobIds: { oldest: string; taken: string }, waitedSeconds: number): Promise<void> {
  const oldest = await queuedParse(service, jobIds.oldest);
  await service.db.update(jobs).set({ createdAt: sql`now() - make_interval(secs => ${waitedSeconds})` }).where(eq(jobs.id, oldest.id));
  const taken = await queuedParse(service, jobIds.taken);
  await service.db.update(jobs).set({ lockedUntil: sql`now() + interval '1 hour'`, lockedBy: 'reader-1', claimedAt: sql`now()` }).where(eq(jobs.id, taken.id));
}

/**
 * Another deployment of the service, without this service's queue extension: a proxy that
 * answers 404 to GET /lab_report/v1/parser/queue and passes everything else on.
 */
export async function startQueuelessProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/lab_report/v1/parser/queue')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Not Found' }));
      return;
    }
    const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
