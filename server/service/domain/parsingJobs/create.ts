import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { enqueueJob } from '../../jobs/queue';
import { parsingJobFiles, parsingJobs, users, type ServiceSchema } from '../../db/schema';
import { sniffUpload } from '../../reader/sniff';
import { emitEvent } from '../../webhooks/outbox';
import { Invalid, ServiceError } from '../errors';
import { presentParsingJob } from './present';

export const PARSE_JOB_KIND = 'parser.parse';
export const PARSING_JOB_CREATED = 'lab_report.parsing_job.created';
export const PARSING_JOB_UPDATED = 'lab_report.parsing_job.updated';
/** A parse that keeps crashing the runner (not a bad file: those fail cleanly) gives up after this many tries. */
export const PARSE_MAX_ATTEMPTS = 3;

const CONTENT_TYPES = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png' } as const;

export interface Upload {
  bytes: Buffer;
  /** As the caller named it; only shown back, never trusted for the type. */
  filename: string;
}

type Db = Database<ServiceSchema>;

/**
 * Stores the upload and its job in one transaction with the background parse job and the
 * `created` webhook event, so a job exists exactly when its file and its work do.
 */
export async function createParsingJob(db: Db, teamId: string, userId: string, upload: Upload, reviewRequested: boolean) {
  if (upload.bytes.length === 0) throw new Invalid(['body', 'file'], 'file is empty', 'value_error.file');
  const kind = await sniffUpload(upload.bytes);
  if (typeof kind !== 'string') throw new ServiceError(415, `Unsupported file: ${kind.rejected}. Upload a PDF, JPEG or PNG lab report.`);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.teamId, teamId)));
  if (!user) throw new Invalid(['body', 'user_id'], 'user_id is not a user of this team', 'value_error.user_id');

  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(parsingJobs)
      .values({
        teamId,
        userId,
        status: 'started',
        stage: 'queued',
        progress: 0,
        reviewRequested,
        needsHumanReview: reviewRequested,
        fileName: safeName(upload.filename),
        contentType: CONTENT_TYPES[kind],
        fileSize: upload.bytes.length,
      })
      .returning();
    await tx.insert(parsingJobFiles).values({ jobId: row!.id, bytes: upload.bytes });
    // Claimed fairly across teams (round-robin, a cap per team): see the parse workers in main.ts.
    await enqueueJob(tx, PARSE_JOB_KIND, { job_id: row!.id }, { maxAttempts: PARSE_MAX_ATTEMPTS, fairKey: teamId });
    const job = presentParsingJob(row!);
    await emitEvent(tx, teamId, PARSING_JOB_CREATED, userId, job as unknown as Record<string, unknown>);
    return job;
  });
}

/** A display name: no path, no control characters, bounded. */
function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = Array.from(base)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 200);
  return clean || 'upload';
}
