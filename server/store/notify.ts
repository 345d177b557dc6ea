import pg from 'pg';

/**
 * PostgreSQL's LISTEN/NOTIFY, on both stores: how one process tells the others (and itself) that
 * something changed — a job became due, an API key was revoked. A notification is sent with
 * `SELECT pg_notify(channel, payload)` inside the writer's transaction, so it arrives exactly when
 * the change is visible, never before the commit and never for a rollback.
 *
 * A listener may also be called with the payload `''`: the connection was lost and re-made, so
 * notifications may have been missed; whoever listens must then look again.
 */
export type Listener = (payload: string) => void;
export interface Notifications {
  listen(channel: string, listener: Listener): Promise<() => void>;
  close(): Promise<void>;
}

/** Channels are fixed identifiers of this code, never user input; quoted all the same. */
const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

class Subscribers {
  private readonly byChannel = new Map<string, Set<Listener>>();
  add(channel: string, listener: Listener): boolean {
    const set = this.byChannel.get(channel) ?? new Set();
    const first = set.size === 0;
    set.add(listener);
    this.byChannel.set(channel, set);
    return first;
  }
  remove(channel: string, listener: Listener) {
    this.byChannel.get(channel)?.delete(listener);
  }
  channels() {
    return [...this.byChannel.keys()];
  }
  deliver(channel: string, payload: string) {
    for (const listener of this.byChannel.get(channel) ?? []) listener(payload);
  }
  deliverEverywhere(payload: string) {
    for (const channel of this.byChannel.keys()) this.deliver(channel, payload);
  }
}

/** The embedded store: one session, whose own notifications come back to it after each statement. */
export function pgliteNotifications(client: {
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
}): Notifications {
  const subscribers = new Subscribers();
  return {
    async listen(channel, listener) {
      if (subscribers.add(channel, listener)) await client.listen(channel, (payload) => subscribers.deliver(channel, payload));
      return () => subscribers.remove(channel, listener);
    },
    async close() {},
  };
}

/**
 * A PostgreSQL server: one connection of its own per process holds the LISTENs (a pooled connection
 * would lose them when returned). When it drops it is re-made after a pause, and every listener
 * hears `''`.
 */
export function postgresNotifications(connectionString: string, retryMs = 1000): Notifications {
  const subscribers = new Subscribers();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString });
      c.on('notification', (n) => subscribers.deliver(n.channel, n.payload ?? ''));
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      await c.connect();
      for (const channel of subscribers.channels()) await c.query(`LISTEN ${quoted(channel)}`);
      client = c;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };
  const lost = (c: pg.Client) => {
    if (client !== c || closed) return;
    client = null;
    c.end().catch(() => {});
    const again = () => {
      retry = null;
      if (closed) return;
      connect().then(
        () => subscribers.deliverEverywhere(''),
        () => (retry = setTimeout(again, retryMs)),
      );
    };
    retry = setTimeout(again, retryMs);
  };

  return {
    async listen(channel, listener) {
      const first = subscribers.add(channel, listener);
      const c = client ?? (await connect());
      if (first) await c.query(`LISTEN ${quoted(channel)}`);
      return () => subscribers.remove(channel, listener);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client ?? (connecting ? await connecting.catch(() => null) : null);
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
