/**
 * What a person sees under a list the BFF pages by cursor (`Content-Range: <resource> 0-2/*` and
 * `X-Has-Next-Page`): the real App, with its real dataProvider and authProvider, against a stubbed
 * fetch whose answers are parsed by the BFF's contract (so a canned answer the BFF could not give
 * fails the test).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ParserJobRecord,
  ParserQueueStatus,
  SessionAnswer,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from '../../server/bff/api';
import { App } from '../App';
import { forgetSession } from '../providers/session';

type Answer = { body: unknown; headers?: Record<string, string> };
type Route = (url: URL) => Answer | undefined;

/** Installs a fetch that answers JSON from `route` (404 where it has nothing) and records each URL asked. */
function stubFetch(role: string, route: Route) {
  const asked: URL[] = [];
  const session = SessionAnswer.parse({ user: { id: 'staff-1', email: 'staff@example.test', name: 'Staff', role }, csrfToken: 'tok' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://labdesk.test');
      asked.push(url);
      const answer = url.pathname === '/api/auth/me' ? { body: session } : route(url);
      if (!answer) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify(answer.body), { status: 200, headers: { 'Content-Type': 'application/json', ...answer.headers } });
    }),
  );
  return asked;
}

/** A cursor page as the BFF sends it: no total, and whether a next page exists. */
function cursorPage(resource: string, rows: unknown[], hasNextPage: boolean): Answer {
  const range = rows.length ? `0-${rows.length - 1}` : '*';
  return { body: rows, headers: { 'Content-Range': `${resource} ${range}/*`, 'X-Has-Next-Page': String(hasNextPage) } };
}

const job = (n: number) =>
  ParserJobRecord.parse({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    job_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    status: 'completed',
    stage: 'awaiting_review',
    needs_human_review: true,
    is_reviewed: false,
    user_id: '0b7e6a8e-1111-4000-8000-000000000001',
    file: { name: `report-${n}.pdf`, content_type: 'application/pdf', size: 1000 },
    created_at: `2026-04-0${1 + (n % 9)}T08:00:00.000Z`,
  });

const ENDPOINT = WebhookEndpointRecord.parse({
  id: '5d1f0c4e-2222-4000-8000-000000000001',
  url: 'https://example.com/hooks',
  description: null,
  event_types: ['*'],
  created_at: '2026-04-01T08:00:00.000Z',
  updated_at: '2026-04-01T08:00:00.000Z',
  disabled_at: null,
  disabled_reason: null,
  disabled: false,
});

/** The range MUI's TablePagination shows ("1-3", "1-25 of more than 25"), if any. */
const displayedRange = (within_: HTMLElement = document.body) => within_.querySelector('.MuiTablePagination-displayedRows')?.textContent ?? null;

function open(path: string) {
  forgetSession();
  localStorage.clear();
  window.history.replaceState(null, '', `/#${path}`);
  render(<App />);
}

beforeEach(() => forgetSession());
afterEach(() => vi.unstubAllGlobals());

describe('pagination of cursor-paged lists', () => {
  it('counts three rows of the review queue as "1-3", with no invented total', async () => {
    const asked = stubFetch('reviewer', (url) => {
      if (url.pathname === '/api/parser-jobs/queue') return { body: ParserQueueStatus.parse({ available: false }) };
      if (url.pathname === '/api/parser-jobs') return cursorPage('parser-jobs', [job(1), job(2), job(3)], false);
      return undefined;
    });
    open('/parser-jobs');

    expect(await screen.findByText('report-3.pdf')).toBeInTheDocument();
    expect(asked.find((u) => u.pathname === '/api/parser-jobs')?.searchParams.get('filter')).toBe('{"queue":true}');
    await waitFor(() => expect(displayedRange()).toBe('1-3'));
    expect(screen.queryByText(/of 25|of 3\b/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled();
    expect(screen.getByRole('button', { name: /previous page/i })).toBeDisabled();
  });

  it('says "of more than" only while the BFF says a next page exists', async () => {
    stubFetch('reviewer', (url) => {
      if (url.pathname === '/api/parser-jobs/queue') return { body: ParserQueueStatus.parse({ available: false }) };
      if (url.pathname === '/api/parser-jobs') return cursorPage('parser-jobs', Array.from({ length: 25 }, (_, i) => job(i + 1)), true);
      return undefined;
    });
    open('/parser-jobs');

    expect(await screen.findByText('report-25.pdf')).toBeInTheDocument();
    await waitFor(() => expect(displayedRange()).toBe('1-25 of more than 25'));
    expect(screen.getByRole('button', { name: /next page/i })).toBeEnabled();
  });

  it('shows an empty delivery log as its empty state alone, without a range beside it', async () => {
    stubFetch('admin', (url) => {
      if (url.pathname === `/api/webhook-endpoints/${ENDPOINT.id}`) return { body: ENDPOINT };
      if (url.pathname === '/api/webhook-deliveries') return cursorPage('webhook-deliveries', WebhookDeliveryRecord.array().parse([]), false);
      return undefined;
    });
    open(`/webhook-endpoints/${ENDPOINT.id}/show`);

    const log = await screen.findByRole('region', { name: 'Deliveries' });
    expect(await within(log).findByText(/No deliveries yet/)).toBeInTheDocument();
    expect(displayedRange(log)).toBeNull();
    expect(within(log).queryByText(/\d+-\d+/)).not.toBeInTheDocument();
    expect(within(log).queryByText(/Rows per page/)).not.toBeInTheDocument();
  });
});
