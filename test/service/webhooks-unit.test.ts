import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPE_PATTERN, webhookUrlProblem } from '../../server/contract';
import type { LookupAddress } from 'node:dns';
import { guardedLookup, isPrivateAddress } from '../../server/service/webhooks/addresses';
import { postWebhook } from '../../server/service/webhooks/http';
import { WebhookReceiver } from './webhookReceiver';
import { matchesEventType } from '../../server/service/webhooks/dispatcher';
import { nextAttemptAt, parseRetryAfter, RETRY_AFTER_MAX_MS, RETRY_DELAYS_MS, retryDelayMs } from '../../server/service/webhooks/schedule';
import { generateSecret, secretKey, signPayload, webhookHeaders } from '../../server/service/webhooks/signing';
import { loadConfig } from '../../server/config';

describe('webhook signing', () => {
  it('makes whsec_ secrets of 32 random bytes and signs what standardwebhooks verifies', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
    const body = JSON.stringify({ event_type: 'labtest.order.created', data: { id: 'o-1' } });
    const headers = webhookHeaders(secret, 'evt-1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt-2' })).toThrow();
  });

  it('matches the reference signature: HMAC-SHA256 over "{id}.{timestamp}.{body}" keyed with the decoded secret', () => {
    // The Standard Webhooks specification's example.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const sig = signPayload(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), '{"test": 2432232314}')).toBe(sig);
  });
});

describe('webhook URL policy', () => {
  it('accepts http(s) URLs of at most 2000 characters without credentials', () => {
    expect(webhookUrlProblem('https://example.com/hooks?x=1')).toBeNull();
    expect(webhookUrlProblem('http://example.com:8080/')).toBeNull();
    expect(webhookUrlProblem('ftp://example.com/')).toMatch(/http/);
    expect(webhookUrlProblem('mailto:a@example.com')).toMatch(/http/);
    expect(webhookUrlProblem('https://a:b@example.com/')).toMatch(/credentials/);
    expect(webhookUrlProblem('https://a@example.com/')).toMatch(/credentials/);
    expect(webhookUrlProblem('/relative')).toMatch(/absolute/);
    expect(webhookUrlProblem(`https://example.com/${'x'.repeat(1981)}`)).toMatch(/2000/);
    expect(webhookUrlProblem(`https://example.com/${'x'.repeat(1980)}`)).toBeNull();
  });

  it('knows private, loopback, link-local and other non-public addresses, IPv4 and IPv6', () => {
    for (const ip of [
      '127.0.0.1', '127.255.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.1.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fd12:3456::1', 'fc00::1', 'ff02::1',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '[::1]', 'fe80::1%eth0', 'not-an-ip',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    // Every other special-purpose range: IPv4-compatible (::/96, which embeds any IPv4 address),
    // IPv4-translated, local NAT64, Teredo and the IETF block, 6to4 and its relay, documentation, SRv6.
    for (const ip of [
      '::127.0.0.1', '::a00:1', '::8.8.8.8', '[::169.254.169.254]', '::ffff:0:10.0.0.1', '64:ff9b:1::a00:1', '2001::1', '2001:0:4136:e378::1',
      '2001:10::1', '2002:a00:1::1', '2002:808:808::1', '192.88.99.1', '3fff::1', '5f00::1', '100::1', '2001:db8::1', 'fec0::1',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::1', '64:ff9b::808:808']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('checks the addresses a name resolves to when connecting (no DNS rebinding into the internal network)', async () => {
    const resolve = (allow: boolean, all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((done) =>
        guardedLookup(allow)('localhost', { all }, (err, address) => done({ err, address: address as string | LookupAddress[] })),
      );
    const refused = await resolve(false, true);
    expect(refused.err?.code).toBe('EADDRNOTALLOWED');
    const single = await resolve(true, false);
    expect(single.err).toBeNull();
    expect(isPrivateAddress(single.address as string)).toBe(true);
    const list = await resolve(true, true);
    expect(Array.isArray(list.address) && list.address.length > 0).toBe(true);

    // Through a real request: a name is resolved by the guarded lookup, and refused unless private URLs are allowed.
    const rx = await WebhookReceiver.start(() => ({ status: 204 }));
    try {
      const url = `http://localhost:${rx.port}/x`;
      const ok = await postWebhook(url, { 'webhook-id': 'e' }, '{}', { timeoutMs: 5000, allowPrivate: true });
      expect(ok).toMatchObject({ statusCode: 204, error: null });
      expect(rx.received).toHaveLength(1);
      const no = await postWebhook(url, {}, '{}', { timeoutMs: 5000, allowPrivate: false });
      expect(no).toMatchObject({ statusCode: null, error: 'address not allowed' });
      expect(rx.received).toHaveLength(1);
      // A public host over plain http: refused before any connection (events carry patient data).
      expect(await postWebhook('http://93.184.216.34/hook', {}, '{}', { timeoutMs: 5000, allowPrivate: false })).toMatchObject({ statusCode: null, error: 'https required' });
    } finally {
      await rx.close();
    }
  });

  it('WEBHOOK_ALLOW_PRIVATE_URLS is a boolean of the config, off by default', () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: '1' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: '' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });
});

describe('webhook event types', () => {
  it('takes "*", exact types and families', () => {
    expect(matchesEventType(['*'], 'anything.at.all')).toBe(true);
    expect(matchesEventType(['labtest.order.created'], 'labtest.order.created')).toBe(true);
    expect(matchesEventType(['labtest.order.created'], 'labtest.order.updated')).toBe(false);
    expect(matchesEventType(['labtest.order.*'], 'labtest.order.updated')).toBe(true);
    expect(matchesEventType(['labtest.*'], 'labtest.appointment.created')).toBe(true);
    expect(matchesEventType(['labtest.order.*'], 'labtest.orders.updated')).toBe(false);
    expect(matchesEventType(['labtest.order.*'], 'labtest.order')).toBe(false);
    expect(matchesEventType(['lab_report.*', 'labtest.order.created'], 'lab_report.parsing_job.created')).toBe(true);
    for (const ok of ['*', 'a', 'labtest.order.*', 'daily.data.mindfulness_minutes.created', 'v2_event']) expect(EVENT_TYPE_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', '**', '*.order', 'Labtest', 'a..b', 'a.', '.a', 'a b', 'a.*.b']) expect(EVENT_TYPE_PATTERN.test(bad), bad).toBe(false);
  });
});

describe('webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (±20 %): 8 attempts over about a day', () => {
    expect(RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18_000, 28_800, 28_800]);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(total).toBeGreaterThan(22);
    expect(total).toBeLessThan(26);
    expect(retryDelayMs(1, () => 0)).toBe(4000);
    expect(retryDelayMs(1, () => 1)).toBe(6000);
    expect(retryDelayMs(2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(8, () => 0.5)).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, bounded to a day, and never retries before our own schedule', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Mar 2026 13:00:00 GMT', now)).toBe(3_600_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999999', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    const half = () => 0.5;
    expect(nextAttemptAt(1, now, null, half)!.getTime() - now.getTime()).toBe(5000);
    expect(nextAttemptAt(1, now, '120', half)!.getTime() - now.getTime()).toBe(120_000);
    expect(nextAttemptAt(3, now, '1', half)!.getTime() - now.getTime()).toBe(1_800_000);
    expect(nextAttemptAt(8, now, '1', half)).toBeNull();
  });
});
