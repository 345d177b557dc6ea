/**
 * Sign-in throttling per account and per address, kept in the store, and the BFF behind a TLS
 * proxy (TRUST_PROXY): client addresses from the loopback range (127.0.0.0/8) stand in for
 * machines on the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { signInThrottle } from '../../server/bff/db/schema';
import type { ThrottlePolicy } from '../../server/bff/auth/throttle';
import { listQuery, PASSWORD, staffEmail, startBff, startService, storeKinds, type BffFixture, type ServiceFixture } from './harness';

// An address's first lock is a minute, not the default second: under load two sign-ins (each a
// password hash) can take longer than a second, and the lock must still be running at the second.
const STRICT: ThrottlePolicy = { windowMs: 15 * 60_000, accountLimit: 5, accountLockMs: 15 * 60_000, addressFree: 3, addressFirstLockMs: 60_000, addressMaxLockMs: 15 * 60_000 };
const GOOD_PASSWORD = 'violet kettle marching upstream';

let service: ServiceFixture;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
});

describe.each(storeKinds)('sign-in throttling (%s)', (kind) => {
  let bff: BffFixture;
  let strict: FastifyInstance;
  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    strict = await bff.buildApp({ signInThrottle: STRICT });
  });
  afterAll(async () => {
    await bff?.close();
  });

  let seq = 0;
  const newMember = async () => {
    const admin = await bff.login('admin');
    const email = `throttled${++seq}-${kind}@labdesk.test`;
    const r = await bff.request({ method: 'POST', url: '/api/staff', session: admin, payload: { email, name: 'Throttle Test', role: 'coordinator', password: GOOD_PASSWORD } });
    expect(r.status).toBe(201);
    return email;
  };
  const signIn = (email: string, password: string, remoteAddress: string, app = strict) =>
    bff.request<{ message: string; code?: string }>({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress, app });

  it('locks an account after repeated failures from many addresses, for every address, with Retry-After and a message', async () => {
    const email = await newMember();
    const other = await newMember();
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'wrong guess number ' + i, `127.0.1.${i + 1}`)).status).toBe(401);
    // The fifth failure trips the lock and says so.
    const fifth = await signIn(email, 'wrong guess number 5', '127.0.1.5');
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe('sign_in_locked');

    // Now even the right password, from an address never seen, is refused before any check.
    const locked = await signIn(email, GOOD_PASSWORD, '127.0.1.99');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.body.message).toMatch(/Too many failed sign-ins for this account\. Try again in 15 minutes/);
    expect(locked.raw.cookies).toHaveLength(0);

    // Another account from the same addresses is unaffected.
    expect((await signIn(other, GOOD_PASSWORD, '127.0.1.1')).status).toBe(200);

    // The lock is in the store: a restarted BFF (another process on the same database) keeps it.
    const restarted = await bff.buildApp({ signInThrottle: STRICT });
    expect((await signIn(email, GOOD_PASSWORD, '127.0.1.100', restarted)).status).toBe(429);

    // When the lock is over, the right password signs in and the count starts again.
    await bff.db.update(signInThrottle).set({ lockedUntil: new Date(Date.now() - 1000), windowStartedAt: new Date(Date.now() - 16 * 60_000) });
    expect((await signIn(email, GOOD_PASSWORD, '127.0.1.101')).status).toBe(200);
    expect((await signIn(email, 'one more wrong guess', '127.0.1.102')).status).toBe(401);
  });

  it('treats unknown e-mails like known ones, so the answers do not reveal who has an account', async () => {
    const nobody = `nobody-${kind}@labdesk.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(nobody, 'any password at all', `127.0.2.${i + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('slows an address that fails on many accounts, without touching other addresses', async () => {
    const accounts = [await newMember(), await newMember(), await newMember(), await newMember(), await newMember()];
    const sprayer = '127.0.3.7';
    // One guess per account: no account reaches its limit, but the address does.
    const answers = [];
    for (const email of accounts.slice(0, 4)) answers.push(await signIn(email, 'Summer2026 is here', sprayer));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(answers[3]!.body.message).toMatch(/from your network/);
    expect(Number(answers[3]!.headers['retry-after'])).toBe(60);
    // While slowed, the address cannot try anything, not even a right password.
    expect((await signIn(accounts[4]!, GOOD_PASSWORD, sprayer)).status).toBe(429);
    // Each further failure doubles the wait.
    await bff.db.update(signInThrottle).set({ lockedUntil: null });
    const again = await signIn(accounts[4]!, 'Autumn2026 is here', sprayer);
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBe(120);
    // Other addresses sign into the same accounts as usual.
    for (const email of accounts) expect((await signIn(email, GOOD_PASSWORD, '127.0.3.8')).status).toBe(200);
  });

  it('counts parallel attempts before checking them: a burst gets no more guesses than the limit', async () => {
    const email = await newMember();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(email, `burst guess ${i}`, `127.0.5.${i + 1}`)));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(STRICT.accountLimit);
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(40 - STRICT.accountLimit);
    // The right password after the burst: locked.
    expect((await signIn(email, GOOD_PASSWORD, '127.0.5.200')).status).toBe(429);
    // An admin's new password lets the member back in at once.
    const admin = await bff.login('admin');
    const [member] = (await bff.get<{ id: string; email: string }[]>(`/api/staff${listQuery({ filter: { q: email } })}`, admin)).body;
    const reset = await bff.request({ method: 'PUT', url: `/api/staff/${member!.id}`, session: admin, payload: { password: 'lantern orbit seventeen cactus' } });
    expect(reset.status).toBe(200);
    expect((await signIn(email, 'lantern orbit seventeen cactus', '127.0.5.201')).status).toBe(200);
  });

  it('counts IPv6 clients by their /64, the block one subscriber holds', async () => {
    const accounts = [await newMember(), await newMember(), await newMember(), await newMember()];
    const statuses = [];
    for (const [i, email] of accounts.entries()) statuses.push((await signIn(email, 'Winter2026 is here', `2001:db8:7:9::${i + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another /64 is another subscriber.
    expect((await signIn(accounts[0]!, GOOD_PASSWORD, '2001:db8:7:a::1')).status).toBe(200);
  });

  it('records failed and throttled sign-ins in the audit trail with their address', async () => {
    const admin = await bff.login('admin');
    const events = await bff.get<{ action: string; outcome: string; ip: string; status_code: number; detail: Record<string, unknown> }[]>(
      `/api/audit-events${listQuery({ range: [0, 499], filter: { action: 'login' } })}`,
      admin,
    );
    const throttled = events.body.filter((e) => e.outcome === 'throttled');
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.every((e) => e.status_code === 429)).toBe(true);
    expect(throttled.some((e) => e.ip === '127.0.1.99' && e.detail.scope === 'account')).toBe(true);
    expect(events.body.some((e) => e.outcome === 'denied' && e.detail.reason === 'wrong_password' && e.ip === '127.0.1.1')).toBe(true);
  });
});

describe('behind a TLS proxy (TRUST_PROXY)', () => {
  let bff: BffFixture;
  beforeAll(async () => {
    bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  });
  afterAll(async () => {
    await bff?.close();
  });
  const forwarded = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'labdesk.example.org' };
  const signIn = (app: FastifyInstance, headers: Record<string, string>) =>
    bff.request<{ csrfToken: string }>({ method: 'POST', url: '/api/auth/login', payload: { email: staffEmail('admin'), password: PASSWORD }, app, headers, remoteAddress: '127.0.0.1' });

  it('over https through a trusted proxy: a __Host- Secure session cookie, HSTS, and the client’s own address', async () => {
    const app = await bff.buildApp({ trustProxy: '127.0.0.1' });
    const r = await signIn(app, forwarded);
    expect(r.status).toBe(200);
    const cookie = r.raw.cookies.find((c) => c.name === '__Host-labdesk_session')!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Strict' });
    expect(cookie.domain).toBeUndefined();
    expect(r.raw.cookies.find((c) => c.name === 'labdesk_session')).toBeUndefined();
    expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');

    const me = await bff.request({ url: '/api/auth/me', app, headers: { ...forwarded, cookie: `__Host-labdesk_session=${cookie.value}` } });
    expect(me.status).toBe(200);
    // The plain-http name is not read over https (nor the other way round).
    expect((await bff.request({ url: '/api/auth/me', app, headers: { ...forwarded, cookie: `labdesk_session=${cookie.value}` } })).status).toBe(401);

    const admin = await bff.login('admin');
    const events = await bff.get<{ ip: string; action: string }[]>(`/api/audit-events${listQuery({ filter: { action: 'login' } })}`, admin);
    expect(events.body.some((e) => e.ip === '203.0.113.7')).toBe(true);
  });

  it('a hop count trusts that many proxies', async () => {
    const app = await bff.buildApp({ trustProxy: 1 });
    const r = await signIn(app, forwarded);
    expect(r.raw.cookies.find((c) => c.name === '__Host-labdesk_session')).toBeDefined();
  });

  it('without TRUST_PROXY, forwarded headers are ignored: no client can claim https or another address', async () => {
    const r = await signIn(bff.app, forwarded);
    expect(r.status).toBe(200);
    const cookie = r.raw.cookies.find((c) => c.name === 'labdesk_session')!;
    expect(cookie.secure).toBeFalsy();
    expect(r.headers['strict-transport-security']).toBeUndefined();
    // Nor from an untrusted address when the proxy is named.
    const named = await bff.buildApp({ trustProxy: '10.0.0.1' });
    const spoofed = await bff.request({ method: 'POST', url: '/api/auth/login', payload: { email: staffEmail('admin'), password: PASSWORD }, app: named, headers: forwarded, remoteAddress: '127.0.0.9' });
    expect(spoofed.raw.cookies.find((c) => c.name === 'labdesk_session')).toBeDefined();
  });
});
