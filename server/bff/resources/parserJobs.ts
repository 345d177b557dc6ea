import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PARSER_LIST_MAX_LIMIT, type ParsingJob } from '../../contract';
import { ErrorBody, IdParams, isUuid, ParserJobRecord, ParserJobsList, ParserQueueStatus, ReviewParserJob, type ErrorCode } from '../api';
import { requirePermission } from '../auth/plugin';
import { cursorCacheKey } from '../cursorCache';
import { DbCursorCache } from '../dbCursorCache';
import { BffError } from '../errors';
import { sendAll, sendList, type RangeResult } from '../pagination';
import { staffDisplayNames } from '../auth/staff';
import type { Database } from '../../store/db';
import type { BffSchema } from '../db/schema';
import type { ServiceClient } from '../upstream/client';
import { fieldErrors, toBffError, UpstreamError } from '../upstream/errors';
import { readMany } from './orders';
import { fetchCursorRange, planParserJobsList } from './parserJobQuery';
import {
  acceptStreamedMultipart,
  declaredLength,
  limitedBody,
  multipartContentType,
  releaseBody,
  tooLarge,
  TOO_LARGE_MESSAGE,
  UPLOAD_MAX_BODY_BYTES,
} from './parserJobUpload';

const RESOURCE = 'parser-jobs';
const AUDIT_RESOURCE = 'parser_jobs';
const TAGS = ['parser jobs'];
/** What the service serves back; anything else is never served from the dashboard's origin. */
const FILE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);
/**
 * The file answer's own policy (it replaces the dashboard's for this URL): nothing runs, nothing
 * loads but the file itself. Opened in a tab, a PDF shows in the browser's viewer (`object-src
 * 'self'`) and an image in its image document; the dashboard itself fetches the bytes (pdf.js) or
 * uses <img>, which the dashboard page's own policy governs (`connect-src`/`img-src 'self'`).
 */
const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

export type ParserJobErrorCode = Extract<ErrorCode, 'not_reviewable' | 'patient_mismatch'>;

/** A BffError whose `code` is one of the parser-job codes (answered by the BFF's one error handler). */
export class ParserJobError extends BffError {
  declare readonly code: ParserJobErrorCode;
  constructor(statusCode: number, message: string, code: ParserJobErrorCode, errors?: Record<string, string>) {
    super(statusCode, message, errors, code);
  }
}

const jobNotFound = () => new BffError(404, 'Parsing job not found');

/** The audit trail keeps ids and enumerated values: never a file name, patient data or values. */
const withoutData = ({ data: _data, ...job }: ParsingJob): ParsingJob => job;

async function getJobOrNull(client: ServiceClient, id: string): Promise<ParsingJob | null> {
  if (!isUuid(id)) return null;
  try {
    return await client.getParsingJob(id);
  } catch (err) {
    // Unknown, another team's, or malformed: all simply "not found".
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
    throw err;
  }
}

/**
 * react-admin resource `parser-jobs` (list over the service's cursor pagination with cached
 * cursors, getOne, getMany, create = a streamed multipart upload) plus the uploaded file and the
 * human review. Every access is audited with job ids only.
 */
export function parserJobsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('parser:read', 'see lab-report parsing jobs');
    const canUpload = requirePermission('parser:upload', 'upload lab reports');
    const canReview = requirePermission('parser:review', 'review parsed lab reports');
    const cursors = new DbCursorCache(app.bffDb);
    acceptStreamedMultipart(app);

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listParserJobs', tags: TAGS, querystring: ParserJobsList, response: { 200: z.array(ParserJobRecord), '4XX': ErrorBody } },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'list' } },
      },
      async (req, reply) => {
        const params = req.query;
        if (params.filter.id) {
          req.auditNote.action = 'read';
          const found = await readMany(params.filter.id, async (id) => {
            const job = await getJobOrNull(client, id);
            return job && withoutData(job);
          });
          return sendAll(reply, RESOURCE, found);
        }

        const plan = planParserJobsList(params);
        req.auditNote.detail = plan.auditDetail;
        let result: RangeResult<ParsingJob>;
        if (plan.query === null) {
          result = { items: [], hasNextPage: false, upstreamCalls: 0 };
        } else {
          const upstreamQuery = plan.query;
          result = await fetchCursorRange(
            {
              cache: cursors,
              // The upstream query decides the sequence (`id` and `created_at` sorts share cursors).
              cacheKey: cursorCacheKey({ resource: RESOURCE, upstream: client.cacheScope, query: upstreamQuery }),
              maxLimit: PARSER_LIST_MAX_LIMIT,
            },
            params.range,
            async (cursor, limit) => {
              const page = await client.listParsingJobs({ ...upstreamQuery, limit, next_cursor: cursor });
              return { items: page.data.map(withoutData), nextCursor: page.next_cursor };
            },
          );
        }
        req.auditNote.detail.upstream_calls = result.upstreamCalls;
        return sendList(reply, RESOURCE, params.range[0], result);
      },
    );

    // The parse queue's depth and oldest wait, for the list's status line. A deployment of the
    // service without the extension answers 404: then the dashboard simply shows no line.
    app.get(
      '/queue',
      { preValidation: canRead, schema: { operationId: 'getParserQueue', tags: TAGS, response: { 200: ParserQueueStatus, '4XX': ErrorBody } } },
      async (): Promise<ParserQueueStatus> => {
        try {
          const q = await client.getParserQueue();
          return {
            available: true,
            queued: q.queued,
            parsing: q.parsing,
            oldestQueuedAt: q.oldest_queued_at,
            oldestWaitSeconds: q.oldest_wait_seconds,
            readers: q.readers,
          };
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) return { available: false };
          throw err;
        }
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getParserJob', tags: TAGS, params: IdParams, response: { 200: ParserJobRecord, '4XX': ErrorBody } },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'read' } },
      },
      async (req) => {
        const job = await getJobOrNull(client, req.params.id);
        if (!job) throw jobNotFound();
        return withReviewerName(app.bffDb, job);
      },
    );

    app.post(
      '',
      {
        preValidation: canUpload,
        schema: {
          operationId: 'uploadLabReport',
          tags: TAGS,
          consumes: ['multipart/form-data'],
          description: 'A lab report (PDF, JPEG or PNG, at most 10 MB) with `user_id` and optional `needs_human_review`, streamed on to the service as it arrives.',
          response: { 201: ParserJobRecord, '4XX': ErrorBody },
        },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'upload' } },
      },
      async (req, reply) => {
        try {
          multipartContentType(req);
          const length = declaredLength(req);
          if (length !== null && length > UPLOAD_MAX_BODY_BYTES) throw tooLarge();
        } catch (err) {
          // Not read at all: close the connection after the answer rather than take in the rest.
          reply.header('connection', 'close');
          throw err;
        }
        const contentType = multipartContentType(req);
        const body = limitedBody(req.raw);
        let job: ParsingJob;
        try {
          job = await client.createParsingJob({ body, contentType });
        } catch (err) {
          if (body.exceeded) throw tooLarge();
          if (err instanceof UpstreamError && err.status === 413) throw new BffError(413, TOO_LARGE_MESSAGE);
          throw err;
        } finally {
          releaseBody(req.raw, body, reply);
        }
        req.auditNote.detail = {
          review_requested: job.review_requested ?? null,
          content_type: job.file?.content_type ?? null,
          size: job.file?.size ?? null,
        };
        return reply.status(201).send(job);
      },
    );

    app.get(
      '/:id/file',
      {
        preValidation: canRead,
        schema: {
          operationId: 'getParserJobFile',
          tags: TAGS,
          params: IdParams,
          produces: ['application/pdf', 'image/jpeg', 'image/png'],
          response: { 200: z.any().describe('The uploaded file, shown inline'), '4XX': ErrorBody },
        },
        config: { audit: { resource: 'parser_job_files', action: 'download' } },
      },
      async (req, reply) => {
        const { id } = req.params;
        if (!isUuid(id)) throw jobNotFound();
        let file;
        try {
          file = await client.parsingJobFile(id);
        } catch (err) {
          if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw jobNotFound();
          throw err;
        }
        const type = file.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
        if (!FILE_TYPES.has(type)) {
          // Never serve another kind of upstream content from the dashboard's origin.
          file.body.destroy();
          throw new BffError(502, 'The service answered the file with something other than a PDF, JPEG or PNG');
        }
        reply
          .type(type)
          // No file name: it may name the patient, and the dashboard shows the file inline anyway.
          .header('content-disposition', 'inline')
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', FILE_CSP);
        if (file.contentLength !== null) reply.header('content-length', String(file.contentLength));
        return reply.send(file.body);
      },
    );

    app.post(
      '/:id/review',
      {
        preValidation: canReview,
        schema: { operationId: 'reviewParserJob', tags: TAGS, params: IdParams, body: ReviewParserJob, response: { 200: ParserJobRecord, '4XX': ErrorBody } },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'review' } },
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw jobNotFound();
        // The reviewer is whoever is signed in; react-admin's `id` in the body is dropped by the contract.
        const body = { ...req.body, reviewer: req.session!.user.id };
        req.auditNote.detail = { decision: body.decision, confirm_patient_mismatch: body.confirm_patient_mismatch === true };
        let job: ParsingJob;
        try {
          job = await client.reviewParsingJob(id, body);
        } catch (err) {
          if (err instanceof UpstreamError) {
            if (err.status === 404) throw jobNotFound();
            if (err.status === 409) throw new ParserJobError(409, toBffError(err).message, 'not_reviewable');
            const mismatch = fieldErrors(err.detail).confirm_patient_mismatch;
            if (err.status === 422 && mismatch) throw new ParserJobError(422, mismatch, 'patient_mismatch', { confirm_patient_mismatch: mismatch });
          }
          throw err;
        }
        req.auditNote.detail.status = job.status;
        return withReviewerName(app.bffDb, job);
      },
    );
  };
}

/** The reviewer's name beside their id, from the BFF's own staff (another console's reviewer stays an id). */
async function withReviewerName<J extends { review?: { reviewer: string | null } | null }>(db: Database<BffSchema>, job: J): Promise<J & { reviewer_name?: string | null }> {
  const id = job.review?.reviewer;
  const name = id ? (await staffDisplayNames(db, [id])).get(id) : undefined;
  return name ? { ...job, reviewer_name: name } : job;
}
