/**
 * One rule for an empty body sent as application/json, everywhere: it is no body. Routes whose
 * body is optional go on without one; routes that need one answer 422 at `body`, like any missing
 * field — never Fastify's own 400.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, storeKinds, useService } from './harness';

describe.each(storeKinds)('an empty JSON body (%s)', (kind) => {
  const svc = useService(kind);
  const empty = { 'content-type': 'application/json' };

  it('is no body where the body is optional: rotating a key, the order sandbox', async () => {
    const team = await svc().createTeam();
    const rotated = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${team.teamId}/api-keys`, headers: { ...empty, 'x-admin-token': ADMIN_TOKEN }, payload: '' });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    // Whitespace only is empty too.
    const again = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${team.teamId}/api-keys`, headers: { ...empty, 'x-admin-token': ADMIN_TOKEN }, payload: ' \n' });
    expect(again.status).toBe(201);
  });

  it('is a missing body (422 at body) where one is needed', async () => {
    const team = await svc().createTeam();
    for (const url of ['/v2/user', '/v3/order/create', '/v2/webhooks/endpoints']) {
      const r = await svc().inject({ method: 'POST', url, key: team.apiKey, headers: empty, payload: '' });
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0].loc[0], url).toBe('body');
    }
  });

  it('still refuses a body that is not JSON', async () => {
    const team = await svc().createTeam();
    const r = await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: empty, payload: '{"client_user_id":' });
    expect(r.status).toBe(422);
  });
});
