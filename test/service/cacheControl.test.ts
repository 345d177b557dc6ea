import { beforeAll, describe, expect, it } from 'vitest';
import { storeKinds, useService, type Team } from './harness';

/** Answers with patient data are kept by no cache: browsers, proxies and CDNs store none. */
describe.each(storeKinds)('Cache-Control (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;

  beforeAll(async () => {
    team = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `cache-${kind}` });
  });

  it('is no-store on every answer that can carry patient data, errors included', async () => {
    const key = team.apiKey;
    const urls = ['/v2/user/', `/v2/user/${userId}`, `/v2/user/resolve/cache-${kind}`, '/v3/orders', `/v2/timeseries/${userId}/mindfulness_minutes/grouped?start_date=2026-01-01&end_date=2026-01-02`, '/lab_report/v1/parser/jobs', '/v2/user/00000000-0000-4000-8000-000000000000'];
    for (const url of urls) expect((await svc().inject({ method: 'GET', url, key })).headers['cache-control'], url).toBe('no-store');
    expect((await svc().inject({ method: 'GET', url: '/v2/user/' })).headers['cache-control']).toBe('no-store'); // 401
    expect((await svc().api(key).post('/v2/user', { client_user_id: `cache-new-${kind}` })).headers['cache-control']).toBe('no-store');
  });

  it('leaves a route its own policy: a provider logo may be cached', async () => {
    const logo = await svc().inject({ method: 'GET', url: '/v2/providers/oura/logo.svg' });
    expect(logo.headers['cache-control']).toMatch(/public/);
  });
});
