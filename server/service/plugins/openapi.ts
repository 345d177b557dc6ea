import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_KEY_HEADER } from './apiKeyAuth';
import { MULTIPART_REQUEST_BODIES } from '../lab-report/v1/uploadDocs';

interface OpenApiDocument {
  paths?: Record<string, Record<string, { requestBody?: unknown }>>;
}

function withMultipartBodies(doc: OpenApiDocument) {
  for (const [route, body] of Object.entries(MULTIPART_REQUEST_BODIES)) {
    const [method, path] = route.split(' ') as [string, string];
    const operation = doc.paths?.[path]?.[method];
    if (operation) operation.requestBody = body;
  }
  return doc as never;
}

/** OpenAPI 3.1 generated from the same zod schemas that validate requests and shape answers. */
async function openapi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Labdesk service',
        version: '1.0.0',
        description:
          'Health-data and lab-testing API. Errors: 422 `{detail: [{loc, msg, type}]}` for invalid input, 404 `{detail}` for unknown ids or ids of another team, 401 `{detail}` for a missing or invalid API key.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Labdesk' },
      },
      servers: [{ url: '/', description: 'The service that served this document' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
          adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    // Multipart bodies are read by @fastify/multipart, not validated by a zod schema, so the
    // generator cannot see them: their documentation is added here, from the routes' own constants.
    transformObject: (generated) =>
      withMultipartBodies(('openapiObject' in generated ? generated.openapiObject : generated.swaggerObject) as OpenApiDocument),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } as never });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapi, { name: 'openapi' });
