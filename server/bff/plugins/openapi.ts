import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { CSRF_HEADER } from '../api/auth';

interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> };
}

const summaryOf = (operationId: string) => {
  const words = operationId.replace(/([A-Z])/g, ' $1').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function withoutUnusedSchemas(doc: OpenApiDocument): OpenApiDocument {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  for (;;) {
    const { components: _components, ...rest } = doc;
    const text = JSON.stringify([rest, doc.components]);
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    if (unused.length === 0) return doc;
    for (const name of unused) delete schemas[name];
  }
}

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
    // Every operation gets a summary from its name when it has none ("listOrders" → "List orders").
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const schema = out.schema as { operationId?: string; summary?: string; security?: unknown };
      if (schema.operationId && !schema.summary) schema.summary = summaryOf(schema.operationId);
      // Requests that change something carry the CSRF token too (sign-in declares none).
      const methods = [input.route?.method].flat();
      if (schema.security === undefined && methods.some((m) => m && !['GET', 'HEAD'].includes(m))) {
        schema.security = [{ session: [], csrf: [] }];
      }
      return out;
    },
    // The generator registers each named schema twice (as read and as written); only the ones
    // routes use are kept, so the document lists no schema nothing refers to.
    transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input) as OpenApiDocument) as never,
  });
}

export default fp(openapi, { name: 'bff-openapi' });
