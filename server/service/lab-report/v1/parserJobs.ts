import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  errorResponses,
  PARSER_LIST_MAX_LIMIT,
  PARSER_MAX_FILE_BYTES,
  ParsingJob,
  ParsingJobParams,
  ParsingJobReviewBody,
  ParsingJobsQuery,
  ParsingJobsResponse,
  ParserQueue,
} from '../../../contract';
import { parseQueueStats } from '../../domain/parsingJobs/queue';
import { createParsingJob } from '../../domain/parsingJobs/create';
import { listParsingJobs } from '../../domain/parsingJobs/list';
import { getParsingJob, readParsingJobFile } from '../../domain/parsingJobs/read';
import { reviewParsingJob } from '../../domain/parsingJobs/submitReview';
import { readUpload } from './upload';

const tags = ['lab report parser'];
const security = [{ apiKey: [] }];
const EXTENSION = '**Extension of this service** (not in the interface): the human-review queue.';

const createDescription = `Multipart/form-data: \`file\` (one file part, at most ${PARSER_MAX_FILE_BYTES} bytes = 10 MB; one byte more is 413), \`user_id\` (text, required: one of the team's users, else 422), \`needs_human_review\` (text "true" or "false", optional: "true" sends the job to human review whatever the parser finds).

The type is read from the content (PDF, JPEG or PNG), never from the file name or the declared type; anything else is 415. The job is stored with its file and parsed in a durable background job (it survives a restart). It answers at once with status \`started\` (stage \`queued\`); poll GET .../job/{job_id} (\`progress\` goes from 0 to 1).

Outcomes: \`completed\` with \`data\` (metadata and results); \`failed\` with \`failure_reason\` (e.g. a broken or encrypted PDF); or waiting for review: status stays \`started\` with \`needs_human_review\` true, stage \`awaiting_review\`, \`data\` as extracted and \`review_reasons\` saying which values are doubtful (low OCR confidence, a value inconsistent with its flag or range, an implausible magnitude, an unparseable value, an ambiguous LOINC match) until a reviewer submits a review. \`lab_report.parsing_job.created\` and \`.updated\` webhook events are recorded.`;

const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: PARSER_MAX_FILE_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  app.post('/lab_report/v1/parser/job', {
    schema: {
      tags,
      security,
      operationId: 'createParsingJob', summary: 'Upload a lab report to parse',
      description: createDescription,
      consumes: ['multipart/form-data'],
      response: {
        200: ParsingJob,
        413: ErrorBody.describe('The file is larger than 10 MB'),
        415: ErrorBody.describe('Not a PDF, JPEG or PNG (by content)'),
        ...errorResponses,
      },
    },
    handler: async (req) => {
      const upload = await readUpload(req);
      return createParsingJob(app.db, req.teamId, upload.userId, upload.file, upload.needsHumanReview);
    },
  });

  app.get('/lab_report/v1/parser/job/:job_id', {
    schema: {
      tags,
      security,
      operationId: 'getParsingJob', summary: 'A parsing job: status, progress, and the parsed data once done',
      params: ParsingJobParams,
      response: { 200: ParsingJob, ...errorResponses },
    },
    handler: (req) => getParsingJob(app.db, req.teamId, req.params.job_id),
  });

  app.get('/lab_report/v1/parser/jobs', {
    schema: {
      tags,
      security,
      operationId: 'listParsingJobs', summary: 'List parsing jobs (the review queue)',
      description: `${EXTENSION} Filters: \`status\` (repeatable), \`needs_human_review\`, \`is_reviewed\`, \`stage\` (\`awaiting_review\` is the queue), \`user_id\`. \`order\`: \`desc\` (newest first, default) or \`asc\` (oldest first: the queue's order). At most ${PARSER_LIST_MAX_LIMIT} jobs a page (\`limit\`, default 25); \`next_cursor\` is opaque and signed: pass it back unchanged with the same filters (another filter or a tampered cursor is 422). Items carry no \`data\`.`,
      querystring: ParsingJobsQuery,
      response: { 200: ParsingJobsResponse, ...errorResponses },
    },
    handler: (req) => listParsingJobs(app.db, app.cursors, req.teamId, req.query),
  });

  app.get('/lab_report/v1/parser/queue', {
    schema: {
      tags,
      security,
      operationId: 'getParserQueue', summary: "The team's parse queue: jobs waiting and being read, and the oldest wait",
      description: `**Extension of this service** (not in the interface). Reports are read by a pool of reader processes claimed fairly across teams (round-robin, at most half the readers per team), so one team's backlog never holds up another's.`,
      response: { 200: ParserQueue, ...errorResponses },
    },
    handler: async (req) => {
      const q = await parseQueueStats(app.db, req.teamId);
      return {
        queued: q.queued,
        parsing: q.parsing,
        oldest_queued_at: q.oldestQueuedAt?.toISOString() ?? null,
        oldest_wait_seconds: q.oldestWaitSeconds,
        readers: app.readers?.stats().size ?? null,
      };
    },
  });

  app.get('/lab_report/v1/parser/job/:job_id/file', {
    schema: {
      tags,
      security,
      operationId: 'getParsingJobFile', summary: 'The uploaded file, as uploaded',
      description: `${EXTENSION} Answers the original bytes with the sniffed content type (application/pdf, image/jpeg or image/png).`,
      params: ParsingJobParams,
      produces: ['application/pdf', 'image/jpeg', 'image/png'],
      response: { 200: z.any().describe('The file’s bytes'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const file = await readParsingJobFile(app.db, req.teamId, req.params.job_id);
      return reply
        .type(file.contentType)
        .header('content-disposition', `inline; filename="${file.headerSafeName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  });

  app.post('/lab_report/v1/parser/job/:job_id/review', {
    schema: {
      tags,
      security,
      operationId: 'reviewParsingJob', summary: 'Submit the human review of a job',
      description: `${EXTENSION} \`decision\` \`approve\`: the job completes with \`data\` = the corrected \`metadata\` and \`results\` (all of them; each left out keeps what was extracted); range flags and interpretation are worked out again from each corrected numeric value and range (a reviewer may keep \`critical\`). \`reject\`: the job fails with the notes as its reason. Either way \`is_reviewed\` becomes true and a \`lab_report.parsing_job.updated\` event is recorded. 409 when the job is still parsing, failed, or reviewed already.`,
      params: ParsingJobParams,
      body: ParsingJobReviewBody,
      response: { 200: ParsingJob, 409: ErrorBody.describe('Not reviewable now (parsing, failed or reviewed already)'), ...errorResponses },
    },
    handler: (req) => reviewParsingJob(app.db, req.teamId, req.params.job_id, req.body),
  });
};

export default routes;
