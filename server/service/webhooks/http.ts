import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressNotAllowed, guardedLookup, isLocalHostName, isPrivateAddress, urlHost } from './addresses';

export interface PostOptions {
  /** The whole exchange (connect, answer, body) must finish within this time. */
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface PostResult {
  /** The receiver's HTTP status; null when there was no answer. */
  statusCode: number | null;
  /** The Retry-After header as sent, if any. */
  retryAfter: string | null;
  /** What went wrong, in a few words (never the payload); null for an answer. */
  error: string | null;
  durationMs: number;
}

/** Answers are read (to free the connection) but never kept beyond this many bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A delivery to an http:// URL while plain http is not allowed. */
class PlainHttpNotAllowed extends Error {}

function describeError(err: unknown): string {
  if (err instanceof AddressNotAllowed) return 'address not allowed';
  if (err instanceof PlainHttpNotAllowed) return 'https required';
  const e = err as NodeJS.ErrnoException;
  if (e?.message === 'timeout') return 'timeout';
  switch (e?.code) {
    case 'EADDRNOTALLOWED':
      return 'address not allowed';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      if (typeof e?.code === 'string' && (e.code.startsWith('ERR_TLS') || /CERT|SSL/.test(e.code))) return `TLS error (${e.code})`;
      return e?.code ? `connection error (${e.code})` : 'connection error';
  }
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is an answer like any other); the
 * address connected to is checked after DNS resolution unless private URLs are allowed.
 */
export function postWebhook(rawUrl: string, headers: Record<string, string>, body: string, opts: PostOptions): Promise<PostResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const failed = (err: unknown): PostResult => ({ statusCode: null, retryAfter: null, error: describeError(err), durationMs: elapsed() });

  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
  const host = urlHost(url);
  if (!opts.allowPrivate && ((isIP(host) && isPrivateAddress(host)) || isLocalHostName(host))) {
    return Promise.resolve(failed(new AddressNotAllowed(host)));
  }
  // Payloads carry patient data: only over TLS, unless local development allows plain http.
  if (!opts.allowPrivate && url.protocol !== 'https:') return Promise.resolve(failed(new PlainHttpNotAllowed()));
  const client = url.protocol === 'https:' ? https : http;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(opts.allowPrivate),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Labdesk-Webhooks/1.0',
      },
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), opts.timeoutMs);
    req.on('error', (err) => finish(failed(err)));
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > MAX_ANSWER_BYTES) res.destroy(); // enough: the answer's status is what counts
      });
      const done = () =>
        finish({
          statusCode,
          retryAfter,
          error: statusCode >= 200 && statusCode < 300 ? null : statusCode >= 300 && statusCode < 400 ? 'redirect not followed' : `HTTP ${statusCode}`,
          durationMs: elapsed(),
        });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.end(body);
  });
}
