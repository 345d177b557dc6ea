import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { audit } from '../audit/audit';
import { BffError } from '../errors';
import { PaginationError } from '../pagination';
import { toBffError, UpstreamError } from '../upstream/errors';

function normalise(error: unknown): BffError | null {
  if (error instanceof BffError) return error;
  if (error instanceof UpstreamError) return toBffError(error);
  if (error instanceof PaginationError) return new BffError(error.statusCode, error.message);
  if (error instanceof ZodError) {
    const errors = Object.fromEntries(error.issues.map((i) => [i.path.join('.') || 'root', i.message]));
    return new BffError(422, 'Some values are not valid', errors);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = Object.fromEntries(error.validation.map((v) => [v.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'root', v.message ?? 'invalid']));
    return new BffError(422, Object.values(errors)[0] ?? 'Some values are not valid', errors);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new BffError(status, (error as Error).message);
  return null;
}

/** The BFF's one error shape, `{message, code?, errors?}`; denied accesses are audited too. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler(async (error, req, reply) => {
    const known = normalise(error);
    if (!known) {
      req.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: 'Something went wrong on our side; try again, and tell an administrator if it persists' });
    }
    if (known.statusCode === 403 && req.session) {
      await audit(app.bffDb, req, {
        action: 'denied',
        resource: req.routeOptions.url ?? req.url.split('?')[0] ?? '',
        outcome: 'denied',
        statusCode: 403,
      }).catch(() => {});
    }
    return reply.status(known.statusCode).send({
      message: known.message,
      ...(known.code && { code: known.code }),
      ...(known.errors && { errors: known.errors }),
    });
  });
}

export default fp(errorsPlugin, { name: 'bff-errors', dependencies: ['bff-db'] });
