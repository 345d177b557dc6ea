import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { textIssues } from '../../../contract';
import { Invalid, ServiceError } from '../../domain/errors';
import type { Upload } from '../../domain/parsingJobs/create';

export interface ParsedUpload {
  file: Upload;
  userId: string;
  needsHumanReview: boolean;
}

const UserId = z.uuid();

/**
 * Reads the multipart form of a parse request: one `file` part (buffered: at most 10 MB, a byte
 * more throws the plugin's 413), `user_id`, optional `needs_human_review` ("true"/"false").
 * Missing or malformed fields are 422 at `body.<field>`, like every other validation error.
 */
export async function readUpload(req: FastifyRequest): Promise<ParsedUpload> {
  if (!req.isMultipart()) {
    throw new ServiceError(415, 'Send the report as multipart/form-data with a `file` part and a `user_id` field');
  }
  let file: Upload | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer(); // drain it, so the request can be answered
          throw new Invalid(['body', part.fieldname], `unexpected file part ${part.fieldname}; send the report as \`file\``, 'value_error.file');
        }
        file = { bytes: await part.toBuffer(), filename: part.filename || 'blob' };
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ServiceError(413, 'The file is larger than 10 MB (10485760 bytes)');
    if (e.code === 'FST_FILES_LIMIT') throw new Invalid(['body', 'file'], 'send exactly one file', 'value_error.file');
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) throw new Invalid(['body'], e.message ?? 'malformed multipart body', 'value_error.multipart');
    throw err;
  }
  // The contract's text rule, for the fields (and the file's name) a multipart body carries.
  const issue = textIssues({ ...fields, ...(file ? { file: file.filename } : {}) }, ['body'])[0];
  if (issue) throw new Invalid(issue.loc, issue.msg, issue.type);
  if (!file) throw new Invalid(['body', 'file'], 'field required', 'missing');
  const userId = UserId.safeParse(fields.user_id);
  if (fields.user_id === undefined) throw new Invalid(['body', 'user_id'], 'field required', 'missing');
  if (!userId.success) throw new Invalid(['body', 'user_id'], 'user_id must be a UUID', 'value_error.uuid');
  const review = fields.needs_human_review;
  if (review !== undefined && review !== 'true' && review !== 'false') {
    throw new Invalid(['body', 'needs_human_review'], 'needs_human_review must be "true" or "false"', 'value_error.bool');
  }
  return { file, userId: userId.data, needsHumanReview: review === 'true' };
}
