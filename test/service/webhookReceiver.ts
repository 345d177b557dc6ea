/**
 * A webhook receiver for the tests: a real HTTP server on 127.0.0.1 that records every request
 * (headers and raw body) and answers what the test tells it to.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the sender's timeout must end the attempt). */
  hang?: boolean;
  /** Answer after this long (an attempt still in flight meanwhile). */
  delayMs?: number;
}

export type Responder = (req: ReceivedWebhook, index: number) => ReceiverAnswer;

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: Responder = () => ({ status: 204 });
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(private readonly server: http.Server) {}

  static async start(respond?: Responder): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    if (respond) receiver.respond = respond;
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: ReceivedWebhook = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        receiver.received.push(got);
        const answer = receiver.respond(got, receiver.received.length - 1);
        if (answer.hang) {
          receiver.hanging.add(res);
          return;
        }
        const send = () => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        };
        if (answer.delayMs) {
          receiver.hanging.add(res);
          setTimeout(() => {
            receiver.hanging.delete(res);
            if (!res.destroyed) send();
          }, answer.delayMs);
        } else {
          send();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The receiver's URL (path optional). */
  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The parsed bodies, in arrival order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read envelopes by property
  bodies(): any[] {
    return this.received.map((r) => JSON.parse(r.body));
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
