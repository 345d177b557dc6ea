import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { PARSER_LIST_MAX_LIMIT, type ParsingJob } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { cursorCacheKey } from '../cursorCache';
import { DbCursorCache } from '../dbCursorCache';
import { BffError } from '../errors';
import { listHeaders, parseListParams, type RangeResult } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { toBffError, UpstreamError } from '../upstream/errors';
import { idsFilter, isUuid } from './filters';
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

/** The record is the service's ParsingJob as is (it carries `id`); list items have no `data`. */
export type ParserJobRecord = ParsingJob;

const RESOURCE = 'parser-jobs';
const AUDIT_RESOURCE = 'parser_jobs';
const IdParams = z.object({ id: z.string().min(1).max(100) });
/** What the service serves back; anything else is never served from the dashboard's origin. */
const FILE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);
/**
 * The file answer's own policy (it replaces the dashboard's for this URL): nothing runs, nothing
 * loads but the file itself. Opened in a tab, a PDF shows in the browser's viewer (`object-src
 * 'self'`) and an image in its image document; the dashboard itself fetches the bytes (pdf.js) or
 * uses <img>, which the dashboard page's own policy governs (`connect-src`/`img-src 'self'`).
 */
const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

export type ParserJobErrorCode = 'not_reviewable';

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
export function parserJobsResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canRead = requirePermission('parser:read', 'see lab-report parsing jobs');
    const canUpload = requirePermission('parser:upload', 'upload lab reports');
    const canReview = requirePermission('parser:review', 'review parsed lab reports');
    const cursors = new DbCursorCache(app.bffDb);
    acceptStreamedMultipart(app);

    app.get('/', { preValidation: canRead }, async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const params = parseListParams(query, { defaultSort: { field: 'created_at', order: 'DESC' } });
      const ids = idsFilter(params.filter);
      if (ids) {
        const found: ParsingJob[] = [];
        const unique = ids.slice(0, 100);
        for (let i = 0; i < unique.length; i += 8) {
          const batch = await Promise.all(unique.slice(i, i + 8).map((id) => getJobOrNull(client, id)));
          for (const job of batch) if (job) found.push(withoutData(job));
        }
        await audit(app.bffDb, req, { action: 'read', resource: AUDIT_RESOURCE, recordIds: found.map((j) => j.id) });
        return reply.headers(listHeaders(RESOURCE, 0, { items: found, total: found.length, hasNextPage: false })).send(found);
      }

      const plan = planParserJobsList(params, query.sort !== undefined);
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
      await audit(app.bffDb, req, {
        action: 'list',
        resource: AUDIT_RESOURCE,
        recordIds: result.items.map((j) => j.id),
        detail: { ...plan.auditDetail, upstream_calls: result.upstreamCalls },
      });
      return reply.headers(listHeaders(RESOURCE, params.range[0], result)).send(result.items);
    });

    // The parse queue's depth and oldest wait, for the list's status line. A deployment of the
    // service without the extension answers 404: then the dashboard simply shows no line.
    app.get('/queue', { preValidation: canRead }, async () => {
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
    });

    app.get('/:id', { preValidation: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const job = await getJobOrNull(client, id);
      if (!job) throw jobNotFound();
      await audit(app.bffDb, req, { action: 'read', resource: AUDIT_RESOURCE, recordIds: [job.id] });
      return job;
    });

    app.post('/', { preValidation: canUpload }, async (req, reply) => {
      const failed = (statusCode: number) =>
        audit(app.bffDb, req, { action: 'upload', resource: AUDIT_RESOURCE, recordIds: [], outcome: 'failed', statusCode });
      let contentType: string;
      try {
        contentType = multipartContentType(req);
        const length = declaredLength(req);
        if (length !== null && length > UPLOAD_MAX_BODY_BYTES) throw tooLarge();
      } catch (err) {
        await failed((err as BffError).statusCode);
        // Not read at all: close the connection after the answer rather than take in the rest.
        reply.header('connection', 'close');
        throw err;
      }

      const body = limitedBody(req.raw);
      let job: ParsingJob;
      try {
        job = await client.createParsingJob({ body, contentType });
      } catch (err) {
        const status = body.exceeded ? 413 : err instanceof UpstreamError ? err.status : 500;
        await failed(status);
        if (body.exceeded) throw tooLarge();
        if (err instanceof UpstreamError && err.status === 413) throw new BffError(413, TOO_LARGE_MESSAGE);
        throw err;
      } finally {
        releaseBody(req.raw, body, reply);
      }
      await audit(app.bffDb, req, {
        action: 'upload',
        resource: AUDIT_RESOURCE,
        recordIds: [job.id],
        detail: {
          user_id: job.user_id ?? null,
          review_requested: job.review_requested ?? null,
          content_type: job.file?.content_type ?? null,
          size: job.file?.size ?? null,
        },
      });
      return reply.status(201).send(job);
    });

    app.get('/:id/file', { preValidation: canRead }, async (req, reply) => {
      const { id } = IdParams.parse(req.params);
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
      await audit(app.bffDb, req, { action: 'download', resource: 'parser_job_files', recordIds: [id.toLowerCase()] });
      reply
        .type(type)
        // No file name: it may name the patient, and the dashboard shows the file inline anyway.
        .header('content-disposition', 'inline')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP);
      if (file.contentLength !== null) reply.header('content-length', String(file.contentLength));
      return reply.send(file.body);
    });

    app.post('/:id/review', { preValidation: canReview }, async (req) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw jobNotFound();
      const given = req.body;
      if (!given || typeof given !== 'object' || Array.isArray(given)) throw new BffError(400, 'The review must be a JSON object');
      // The reviewer is whoever is signed in; a `reviewer` (or react-admin's `id`) in the body is dropped.
      const { decision, metadata, results, notes } = given as Record<string, unknown>;
      const body = { decision, metadata, results, notes, reviewer: req.session!.user.id };
      const auditDecision = decision === 'approve' || decision === 'reject' ? decision : null;
      let job: ParsingJob;
      try {
        job = await client.reviewParsingJob(id, body);
      } catch (err) {
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, {
            action: 'review',
            resource: AUDIT_RESOURCE,
            recordIds: [id.toLowerCase()],
            detail: { decision: auditDecision },
            outcome: 'failed',
            statusCode: err.status,
          });
          if (err.status === 404) throw jobNotFound();
          if (err.status === 409) throw new ParserJobError(409, toBffError(err).message, 'not_reviewable');
        }
        throw err;
      }
      await audit(app.bffDb, req, {
        action: 'review',
        resource: AUDIT_RESOURCE,
        recordIds: [job.id],
        detail: { decision: auditDecision, status: job.status },
      });
      return job;
    });
  };
}
