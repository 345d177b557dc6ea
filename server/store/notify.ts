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
  /**
   * Resolves once every notification committed before the call has been delivered to the
   * listeners, with the number of the listening connection (it changes each time the connection is
   * re-made: notifications may have been missed in between), or null when the channel is down.
   * What a cache calls before trusting itself: a notification reaches this process a moment after
   * the writer's commit returns, and another request may arrive in that moment.
   */
  catchUp(): Promise<number | null>;
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
    // Listeners are called (in microtasks) while a statement's answer is read, before whoever ran
    // it goes on; one session, never lost.
    async catchUp() {
      return 0;
    },
    async close() {},
  };
}

/**
 * A PostgreSQL server: one connection of its own per process holds the LISTENs (a pooled connection
 * would lose them when returned). When it drops it is re-made after a pause, and every listener
 * hears `''`.
 *
 * `catchUp` is an empty query on that connection: the server sends a listening session the
 * notifications committed before a query ahead of the query's answer. Callers arriving while one
 * is on its way share the next, so many requests cost one round trip.
 */
export function postgresNotifications(connectionString: string, retryMs = 1000): Notifications {
  const subscribers = new Subscribers();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let connectionNumber = 0;
  let inFlight: Promise<number | null> | null = null;
  let next: Promise<number | null> | null = null;

  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString, application_name: 'labdesk_notifications', keepAlive: true });
      c.on('notification', (n) => subscribers.deliver(n.channel, n.payload ?? ''));
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      await c.connect();
      for (const channel of subscribers.channels()) await c.query(`LISTEN ${quoted(channel)}`);
      client = c;
      connectionNumber++;
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

  const roundTrip = async (): Promise<number | null> => {
    const c = client;
    const number = connectionNumber;
    if (!c) return null;
    try {
      await c.query('');
    } catch {
      return null;
    }
    return client === c && connectionNumber === number ? number : null;
  };
  // A round trip already on its way may have been sent before the caller's moment: the caller waits
  // for the next one, which every caller arriving meanwhile shares.
  const catchUp = (): Promise<number | null> => {
    if (!inFlight) {
      const trip = roundTrip();
      inFlight = trip;
      void trip.finally(() => {
        if (inFlight === trip) inFlight = null;
      });
      return trip;
    }
    next ??= inFlight.then(() => {
      next = null;
      return catchUp();
    });
    return next;
  };

  return {
    catchUp,
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
