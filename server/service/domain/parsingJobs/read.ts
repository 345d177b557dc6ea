import { and, eq } from 'drizzle-orm';
import type { ParsedLabReportData, ParsingJob } from '../../../contract';
import { checkReportPatient } from '../biomarkers/patientCheck';
import type { Database } from '../../../store/db';
import { parsingJobFiles, parsingJobs, type ServiceSchema } from '../../db/schema';
import { NotFound } from '../errors';
import { presentParsingJob } from './present';

type ServiceDb = Database<ServiceSchema>;

/** One of the team's jobs, with its parsed data; another team's is not found. */
export async function getParsingJob(db: ServiceDb, teamId: string, jobId: string): Promise<ParsingJob> {
  const [row] = await db
    .select()
    .from(parsingJobs)
    .where(and(eq(parsingJobs.id, jobId), eq(parsingJobs.teamId, teamId)));
  if (!row) throw new NotFound('Parsing job');
  const job = presentParsingJob(row);
  const data = row.data as ParsedLabReportData | null;
  if (!data) return job;
  // After an approval `data` holds the corrected header; the check shows it beside the one read.
  const read = job.review?.extracted_metadata;
  return { ...job, patient_check: await checkReportPatient(db, teamId, row.userId, read ?? data.metadata, read ? data.metadata : undefined) };
}

export interface UploadedFile {
  bytes: Buffer;
  contentType: string;
  /** Printable ASCII only, for a Content-Disposition header. */
  headerSafeName: string;
}

/** The uploaded file of one of the team's jobs, as uploaded. */
export async function readParsingJobFile(db: ServiceDb, teamId: string, jobId: string): Promise<UploadedFile> {
  const [row] = await db
    .select({ bytes: parsingJobFiles.bytes, contentType: parsingJobs.contentType, fileName: parsingJobs.fileName })
    .from(parsingJobs)
    .innerJoin(parsingJobFiles, eq(parsingJobFiles.jobId, parsingJobs.id))
    .where(and(eq(parsingJobs.id, jobId), eq(parsingJobs.teamId, teamId)));
  if (!row) throw new NotFound('Parsing job');
  return { bytes: Buffer.from(row.bytes), contentType: row.contentType, headerSafeName: row.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_') };
}
