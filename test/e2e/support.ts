/** What the chromium flows share besides the browser: the test's own view of the service, and small helpers. */
import type { User } from '../../server/contract';
import type { SharedApp } from './globalSetup';

/** A value set up in beforeAll; a clear failure (not a TypeError) when beforeAll did not get that far. */
export function the<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set up (did beforeAll fail?)`);
  return value;
}

/** The service straight over HTTP with the demo team's key: how each flow checks what the dashboard did. */
export function serviceApi(app: SharedApp) {
  const call = async <T>(method: string, pathAndQuery: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${app.serviceUrl}${pathAndQuery}`, {
      method,
      headers: { 'x-service-api-key': app.credentials.demoApiKey, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`service ${method} ${pathAndQuery} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    get: <T>(pathAndQuery: string) => call<T>('GET', pathAndQuery),
    post: <T>(pathAndQuery: string, body: unknown) => call<T>('POST', pathAndQuery, body),
  };
}

/** The shortest piece of the id (not its start, when possible) that only this user's client_user_id contains. */
export function uniqueFragment(user: User, users: User[]): string {
  const id = user.client_user_id;
  for (let length = 4; length < id.length; length++) {
    const starts = [...Array.from({ length: id.length - length }, (_, i) => i + 1), 0];
    for (const at of starts) {
      const piece = id.slice(at, at + length).toLowerCase();
      const matches = users.filter((u) => u.client_user_id.toLowerCase().includes(piece));
      if (matches.length === 1) return id.slice(at, at + length);
    }
  }
  return id;
}
