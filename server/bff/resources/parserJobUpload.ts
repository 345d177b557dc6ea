/**
 * Lab-report uploads pass through the BFF as a stream: the browser's multipart/form-data body goes
 * on to the service byte for byte while it arrives, so the BFF never holds a report in memory. The
 * BFF checks what it can without reading the form (the content type, the declared length) and caps
 * the bytes it forwards; the service reads the parts, sniffs the file and enforces the exact 10 MB.
 */
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PARSER_MAX_FILE_BYTES } from '../../contract';
import { BffError } from '../errors';

/**
 * Room for the form's other parts (`user_id`, `needs_human_review`, part headers, boundaries): the
 * service takes at most 10 text fields of 1 KB, so 64 KiB is generous. A body beyond the file limit
 * plus this is refused by the BFF itself; a file a few bytes over 10 MB is refused by the service.
 */
export const UPLOAD_OVERHEAD_BYTES = 64 * 1024;
export const UPLOAD_MAX_BODY_BYTES = PARSER_MAX_FILE_BYTES + UPLOAD_OVERHEAD_BYTES;

export const TOO_LARGE_MESSAGE = `The file is larger than 10 MB (${PARSER_MAX_FILE_BYTES} bytes)`;
export const tooLarge = () => new BffError(413, TOO_LARGE_MESSAGE);

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
const BOUNDARY = /;\s*boundary=(?:"[^"\r\n]{1,70}"|[^\s;"]{1,70})\s*(;|$)/i;

/**
 * Lets multipart/form-data requests of the plugin's scope reach their handler unread (Fastify
 * answers 415 for content types it has no parser for, and would buffer bodies it parses).
 */
export function acceptStreamedMultipart(app: FastifyInstance) {
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));
}

/** The request's Content-Type when it is multipart/form-data with a boundary; else 415. */
export function multipartContentType(req: FastifyRequest): string {
  const type = req.headers['content-type'];
  if (typeof type !== 'string' || !MULTIPART.test(type) || !BOUNDARY.test(type)) {
    throw new BffError(415, 'Send the report as multipart/form-data with a `file` part and a `user_id` field');
  }
  return type;
}

/** The declared Content-Length, or null when the body is chunked (or the header is junk). */
export function declaredLength(req: FastifyRequest): number | null {
  const raw = req.headers['content-length'];
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/** Passes bytes through until `max`; one byte more fails the stream with a 413. */
export class ByteLimit extends Transform {
  seen = 0;
  exceeded = false;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.max) {
      this.exceeded = true;
      done(tooLarge());
      return;
    }
    done(null, chunk);
  }
}

/**
 * The request body as a capped stream. Piped by hand rather than with `pipeline`: a failure of the
 * cap must not destroy the request's socket, which still has to carry the answer.
 */
export function limitedBody(raw: IncomingMessage, max = UPLOAD_MAX_BODY_BYTES): ByteLimit {
  const limit = new ByteLimit(max);
  raw.on('error', (err) => limit.destroy(err));
  raw.on('close', () => {
    // Closed before its end: the browser gave up (or the connection broke) mid-upload.
    if (!raw.readableEnded) limit.destroy(new Error('the upload was interrupted'));
  });
  raw.pipe(limit);
  return limit;
}

/**
 * After the upstream call, whatever its outcome: stop forwarding. A body not read to its end (the
 * cap was hit, or the service answered early) is drained and the connection closed after the answer,
 * so the browser gets its answer rather than a stalled upload.
 */
export function releaseBody(raw: IncomingMessage, limit: ByteLimit, reply: FastifyReply) {
  raw.unpipe(limit);
  if (!limit.destroyed) limit.destroy();
  if (!raw.readableEnded) {
    reply.header('connection', 'close');
    raw.resume();
  }
}
