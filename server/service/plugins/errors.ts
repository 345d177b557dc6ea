import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ValidationIssue } from '../../contract';
import { ServiceError } from '../domain/errors';

const PART_NAMES: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

function issueType(keyword: string, params: Record<string, unknown>, message: string): string {
  const custom = (params.params as { type?: unknown } | undefined)?.type;
  if (typeof custom === 'string') return custom;
  if (keyword === 'invalid_type' && /received undefined/.test(message)) return 'missing';
  return `value_error.${keyword}`;
}

/**
 * One error shape everywhere, the production service's: 422 `{detail: [{loc, msg, type}]}` for
 * invalid input, `{detail: "..."}` otherwise. Bad input never becomes a 500, and a 500 never
 * carries a stack trace.
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ServiceError) {
      return reply.status(error.statusCode).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = PART_NAMES[error.validationContext ?? 'body'] ?? 'body';
      const detail: ValidationIssue[] = error.validation.map((v) => {
        const params = (v.params ?? {}) as Record<string, unknown>;
        const path = v.instancePath
          .split('/')
          .filter(Boolean)
          .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        const missing = params.expected && /received undefined/.test(v.message ?? '');
        return {
          loc: [part, ...path],
          msg: missing ? 'field required' : (v.message ?? 'invalid value'),
          type: issueType(v.keyword, params, v.message ?? ''),
        };
      });
      return reply.status(422).send({ detail });
    }
    if (isResponseSerializationError(error)) {
      // Paths and codes of the mismatches, never the values that did not match.
      const issues = (error.cause?.issues ?? []).map((i: { path?: unknown; code?: unknown }) => ({ path: i.path, code: i.code }));
      request.log.error({ issues }, 'response did not match its contract');
      return reply.status(500).send({ detail: 'Internal server error' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large...
      const code = status === 400 ? 422 : status;
      const detail: ValidationIssue[] | string =
        code === 422 ? [{ loc: ['body'], msg: error.message, type: 'value_error.json' }] : error.message;
      return reply.status(code).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ detail: `No route ${request.method} ${request.url.split('?')[0]}` });
  });
}

export default fp(errorsPlugin, { name: 'errors' });
