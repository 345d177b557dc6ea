import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { CSRF_HEADER } from '../api/auth';

/**
 * The BFF's OpenAPI document, generated from the schemas its routes register (server/bff/api/).
 * Served at /api/openapi.json to signed-in staff; docs/bff-api.md explains the protocol around it.
 */
async function openapi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Labdesk BFF',
        version: '1.0.0',
        description:
          'The dashboard’s API: react-admin’s ra-data-simple-rest protocol (`range`, `sort` and `filter` as JSON query parameters; `Content-Range` on lists) over the Labdesk service. ' +
          'Sign in with POST /api/auth/login; the session is an HttpOnly cookie, and every request that changes something carries the `csrfToken` of the sign-in answer in `' +
          CSRF_HEADER +
          '`. Errors: `{message, code?, errors?}`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Labdesk' },
      },
      servers: [{ url: '/', description: 'The BFF that served this document' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'labdesk_session', description: 'Set by POST /api/auth/login' },
          csrf: { type: 'apiKey', in: 'header', name: CSRF_HEADER, description: 'Required on POST, PUT, PATCH and DELETE' },
        },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
}

export default fp(openapi, { name: 'bff-openapi' });
