import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { textIssues } from '../../contract';

/**
 * The contract's text rule (server/contract/text.ts) for every route: path values, query and JSON
 * body are checked before the route's own validation, and a break is a 422 at the field's `loc`.
 * Multipart fields are read by their route and checked there with the same rule.
 */
async function textRule(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    const issues = [
      ...textIssues(request.params, ['path']),
      ...textIssues(request.query, ['query']),
      // A multipart body is read by its route (and checked there); Fastify leaves it unparsed here.
      ...(String(request.headers['content-type'] ?? '').startsWith('multipart/') ? [] : textIssues(request.body, ['body'])),
    ];
    if (issues.length) return reply.status(422).send({ detail: issues });
  });
}

export default fp(textRule, { name: 'text-rule' });
