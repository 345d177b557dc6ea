/**
 * The BFF's HTTP exchanges with the service, on `node:http`'s keep-alive Agent rather than `fetch`.
 *
 * Why not `fetch`: every call built a Request, a Headers, a web ReadableStream for the answer and
 * its reader, and read the body through them; in the BFF's profile under load that was 13 % of its
 * CPU for a 31 KB page, more than parsing it. `node:http` hands the body over as Buffers and reuses
 * its kept-alive connections the same way (see docs/performance.md, "The BFF's upstream call").
 *
 * What `fetch` did that is kept on purpose: a deadline covering the whole exchange, the answer's
 * body included (a service that stalls mid-answer is a 504, not a hung request); redirects of a read
 * within the service's origin followed (a deployment may redirect `/v2/user` to `/v2/user/`). What
 * is new: the connections per service are bounded (calls beyond wait for one, within their
 * deadline), and an answer read whole may not exceed a size (a deployment gone wrong cannot make
 * the BFF buffer without end).
 */
import http from 'node:http';
import https from 'node:https';
import { pipeline, Readable } from 'node:stream';

export interface TransportOptions {
  /** Connections to the service at most (kept alive and reused); further calls queue for one. */
  maxSockets: number;
}

/** One request: a path with its query, headers, and a body that is a string or a stream. */
export interface Exchange {
  method: string;
  /** Path and query, appended to the base URL. */
  target: string;
  headers: Record<string, string>;
  body?: string | AsyncIterable<Uint8Array>;
  /** The whole exchange, the answer's body included. */
  timeoutMs: number;
}

/** No answer: the connection failed (`code`, e.g. ECONNREFUSED, ECONNRESET) or the deadline passed. */
export class NoAnswer extends Error {
  constructor(
    readonly code: string,
    readonly timedOut: boolean,
  ) {
    super(timedOut ? 'the service did not answer in time' : `no answer from the service (${code})`);
  }
}

/** An answer larger than the reader allows. */
export class AnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the service's answer is larger than ${limit} bytes`);
  }
}

/** Redirects followed for one read, at most (fetch's limit is 20; a service needs one). */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The service's answer: status and headers at once, the body read whole or streamed, each once. */
export class Answer {
  private settled = false;

  constructor(
    private readonly res: http.IncomingMessage,
    private readonly deadline: Deadline,
  ) {
    // The deadline runs until the body has been read (or dropped): then the timer goes.
    res.once('close', () => deadline.clear());
    // A connection that breaks mid-body errors the body: whoever reads it hears of it (text()
    // rejects, a piped PDF is cut off); this listener only keeps an unread body's error from
    // being an uncaught exception.
    res.on('error', () => {});
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  header(name: string): string | undefined {
    const value = this.res.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The whole body as UTF-8 text; larger than `maxBytes` (declared or read) is AnswerTooLarge. */
  text(maxBytes: number): Promise<string> {
    const res = this.claim();
    const declared = Number(res.headers['content-length']);
    if (declared > maxBytes) {
      res.destroy();
      return Promise.reject(new AnswerTooLarge(maxBytes));
    }
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(new AnswerTooLarge(maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      res.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')));
      res.once('error', (err) => reject(this.deadline.failure(err)));
      // Cut off before its end (the deadline, the service gone): 'end' never comes.
      res.once('close', () => {
        if (!res.complete) reject(this.deadline.failure(new Error('the answer was cut off')));
      });
    });
  }

  /** The body as it arrives, for passing on (a PDF); the deadline still applies to its end. */
  stream(): Readable {
    return this.claim();
  }

  /** Drops the body unread; the connection is closed rather than read to its end. */
  discard(): void {
    if (!this.settled) this.claim().destroy();
  }

  private claim(): http.IncomingMessage {
    if (this.settled) throw new Error('the answer was already read');
    this.settled = true;
    return this.res;
  }
}

/** A timer for one exchange: when it fires, whatever is in flight is destroyed. */
class Deadline {
  expired = false;
  private timer: NodeJS.Timeout;
  private onExpire: (() => void) | null = null;

  constructor(ms: number) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.onExpire?.();
    }, ms);
  }

  /** What to destroy when the time is up (the request in flight, then the answer being read). */
  guard(destroy: () => void) {
    this.onExpire = destroy;
  }

  clear() {
    clearTimeout(this.timer);
  }

  /** An error of the exchange, read as a timeout when the deadline caused it. */
  failure(err: unknown): NoAnswer {
    if (this.expired) return new NoAnswer('TimeoutError', true);
    const code = err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : err instanceof Error ? err.name : 'unknown';
    return new NoAnswer(code, false);
  }
}

/** Kept-alive connections to one service (its base URL), bounded. */
export class Transport {
  private readonly origin: URL;
  /** The base URL's path (a service mounted under a prefix), without its trailing slash. */
  private readonly basePath: string;
  private readonly agent: http.Agent;
  private readonly send: typeof http.request;

  constructor(baseUrl: string, opts: TransportOptions) {
    this.origin = new URL(baseUrl);
    this.basePath = this.origin.pathname.replace(/\/+$/, '');
    const secure = this.origin.protocol === 'https:';
    // lifo: the most recently used connection is reused first, so a quiet BFF keeps few open
    // (and those less likely to be at the service's idle limit).
    const agentOptions = { keepAlive: true, maxSockets: opts.maxSockets, scheduling: 'lifo' as const };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.send = secure ? https.request : http.request;
  }

  /**
   * Sends one exchange; answers once the status and headers are in. Never rejects with anything
   * but NoAnswer. A read (GET) redirected within the service's origin is followed.
   */
  async request(exchange: Exchange): Promise<Answer> {
    const deadline = new Deadline(exchange.timeoutMs);
    try {
      let target = this.basePath + exchange.target;
      for (let hop = 0; ; hop++) {
        const res = await this.once(exchange, target, deadline);
        const next = exchange.method === 'GET' && hop < MAX_REDIRECTS && REDIRECTS.has(res.statusCode ?? 0) ? this.sameOrigin(res.headers.location) : null;
        if (!next) return new Answer(res, deadline);
        res.resume(); // read to its end, so its connection is reused
        target = next;
      }
    } catch (err) {
      deadline.clear();
      throw err instanceof NoAnswer ? err : deadline.failure(err);
    }
  }

  /** Closes the kept-alive connections (the BFF is shutting down). */
  close(): void {
    this.agent.destroy();
  }

  private once(exchange: Exchange, target: string, deadline: Deadline): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.send({
        protocol: this.origin.protocol,
        // An IPv6 literal comes bracketed in a URL, bare to node:http.
        hostname: this.origin.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: this.origin.port,
        method: exchange.method,
        path: target,
        headers: exchange.headers,
        agent: this.agent,
      });
      let answered = false;
      deadline.guard(() => req.destroy());
      req.once('response', (res) => {
        answered = true;
        deadline.guard(() => res.destroy());
        resolve(res);
      });
      req.on('error', (err) => {
        // After the answer has come, a failure to send the rest of a body (the service answered
        // early and closed) is the answer's business, not a second outcome of this call.
        if (!answered) reject(deadline.failure(err));
      });
      const { body } = exchange;
      if (body === undefined || typeof body === 'string') {
        req.end(body);
      } else {
        // Streamed as it arrives (chunked); a failure of the source (the caller's size limit, the
        // browser gone) fails the call like a broken connection.
        pipeline(body instanceof Readable ? body : Readable.from(body), req, () => {});
      }
    });
  }

  /** A redirect's target when it stays on the service's origin; elsewhere, not followed. */
  private sameOrigin(location: string | undefined): string | null {
    if (!location) return null;
    try {
      const next = new URL(location, this.origin);
      return next.origin === this.origin.origin ? next.pathname + next.search : null;
    } catch {
      return null;
    }
  }
}
