import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { BffError } from '../errors';
import { PaginationError } from '../pagination';
import { toBffError, UpstreamError } from '../upstream/errors';
import { auditFailure } from './audit';

type ValidationPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * What a request part that fails its schema answers: a malformed list request (`range`, `sort`,
 * `filter`: what react-admin builds, not what a person typed) is a 400 naming the parameter, e.g.
 * `filter.status`; a path id that cannot be a record's is simply not found; any other value (a
 * body, a chart's dates) is a 422 with react-admin's field errors.
 */
const LIST_PARAMS = new Set(['range', 'sort', 'filter']);
function statusOf(part: ValidationPart, firstField: string): number {
  if (part === 'params') return 404;
  if (part === 'querystring' && LIST_PARAMS.has(firstField.split('.')[0]!)) return 400;
  if (part === 'headers') return 400;
  return 422;
}

function fieldOf(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.') || 'root';
}

function normalise(error: unknown): BffError | null {
  if (error instanceof BffError) return error;
  if (error instanceof UpstreamError) return toBffError(error);
  if (error instanceof PaginationError) return new BffError(error.statusCode, error.message, error.param ? { [error.param]: error.message } : undefined);
  if (error instanceof ZodError) {
    const errors = Object.fromEntries(error.issues.map((i) => [i.path.join('.') || 'root', i.message]));
    return new BffError(422, 'Some values are not valid', errors);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const part = ((error as FastifyError).validationContext ?? 'body') as ValidationPart;
    const errors: Record<string, string> = {};
    for (const v of error.validation) errors[fieldOf(v.instancePath)] ??= v.message ?? 'is not valid';
    const [field, message] = Object.entries(errors)[0] ?? ['root', 'is not valid'];
    const status = statusOf(part, field);
    if (status === 404) return new BffError(404, 'Not found');
    return new BffError(status, field === 'root' ? `The ${part === 'body' ? 'body' : 'request'}: ${message}` : `${field}: ${message}`, errors);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new BffError(status, (error as Error).message);
  return null;
}

/** The BFF's one error shape, `{message, code?, errors?}` (server/bff/api/errors.ts); failures and denials are audited. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler(async (error, req, reply) => {
    const known = normalise(error);
    const status = known?.statusCode ?? 500;
    if (!known) req.log.error({ err: error }, 'unhandled error');
    else if (error instanceof UpstreamError && status >= 500) {
      // The operation's name, never its path or query (they can carry patient identifiers).
      req.log.warn({ operation: error.operation, upstreamStatus: error.status, reason: error.reason }, 'service call failed');
    }
    await auditFailure(app, req, status).catch((err: unknown) => req.log.error({ err }, 'audit trail not written'));
    if (!known) {
      return reply.status(500).send({ message: 'Something went wrong on our side; try again, and tell an administrator if it persists' });
    }
    if (known.retryAfterSeconds !== undefined) reply.header('retry-after', String(known.retryAfterSeconds));
    return reply.status(known.statusCode).send({
      message: known.message,
      ...(known.code && { code: known.code }),
      ...(known.errors && { errors: known.errors }),
      ...(known.code === 'mfa_required' && { mfa_required: true }),
    });
  });
}

export default fp(errorsPlugin, { name: 'bff-errors', dependencies: ['bff-db', 'bff-audit'] });
