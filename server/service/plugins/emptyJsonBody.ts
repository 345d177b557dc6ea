import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * One rule for an empty body sent as `application/json` (clients and SDKs often send the header
 * with nothing after it, e.g. on `POST /v3/order/{id}/cancel`): it reads as no body at all. What
 * happens next is the route's schema's business, the same everywhere: a route whose body is
 * optional proceeds with none; a route that needs one answers 422 at `body`, like any missing
 * field. (Fastify's default parser answers its own 400 instead, outside the interface's errors.)
 */
async function emptyJsonBody(app: FastifyInstance) {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    return json(req, body as string, done);
  });
}

export default fp(emptyJsonBody, { name: 'empty-json-body' });
