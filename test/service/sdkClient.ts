/**
 * The production SDK (`@tryvital/vital-node`), pointed at the service under test: its requests go
 * through `app.inject`, so its strict response parsing checks the service's answers without a port.
 */
import type { FastifyInstance } from 'fastify';
import { VitalClient } from '@tryvital/vital-node';
import { API_KEY_HEADER } from '../../server/service/plugins/apiKeyAuth';

function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers.entries()),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(answer.statusCode === 204 ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}

/** An SDK client of the team, talking to `app`. */
export function sdkClient(app: FastifyInstance, apiKey: string): VitalClient {
  return new VitalClient({
    apiKey,
    baseUrl: 'http://service.test',
    headers: { [API_KEY_HEADER]: apiKey },
    fetch: injectFetch(app),
    maxRetries: 0,
  });
}
