import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The team the request's API key belongs to; set on every authenticated route. */
    teamId: string;
  }
}

export const API_KEY_HEADER = 'x-service-api-key';

/** The request decoration `teamId` is declared once in app.ts. Register inside the scope whose routes need a team: every route there answers 401 without a valid key. */
async function apiKeyAuth(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers[API_KEY_HEADER];
    if (typeof key !== 'string' || key.length === 0) {
      return reply.status(401).send({ detail: `Missing ${API_KEY_HEADER} header` });
    }
    const teamId = key.length <= 200 ? await app.apiKeys.teamIdFor(key) : null;
    if (!teamId) return reply.status(401).send({ detail: 'Invalid API key' });
    request.teamId = teamId;
  });
}

export default fp(apiKeyAuth, { name: 'api-key-auth', dependencies: ['db'] });
