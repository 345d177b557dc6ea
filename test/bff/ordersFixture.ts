/**
 * Fixtures of the BFF's lab-ordering suites: the real service (harness.startService) with its
 * synced lab catalogue and the demo lab accounts for both teams, users, and orders placed through
 * the service's own HTTP API (so they are exactly what the service makes of them).
 */
import { randomUUID } from 'node:crypto';
import { ensureDemoLabAccounts, sharedLabTestId, slugify, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { startService, type ServiceFixture, type Team } from './harness';

/** Shared catalogue lab tests by name (see server/service/seed/labCatalogue.ts). */
export const labTestId = (lab: string, name: string) => sharedLabTestId(`${lab}_${slugify(name)}`);

export interface LabServiceFixture extends ServiceFixture {
  /** Calls the service directly with a team's API key. */
  call<T = unknown>(team: Team, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  /** Places an order through the service (POST /v3/order/create); returns the order. */
  placeOrder(team: Team, userId: string, overrides?: Record<string, unknown>): Promise<WireOrder>;
  /** Sandbox: drives an order to `<top>.<method>.<low>` at once. */
  driveOrder(team: Team, orderId: string, finalStatus: string): Promise<WireOrder>;
}

export interface WireOrder {
  id: string;
  user_id: string;
  status: string;
  low_level_status: string;
  lab_account_id: string | null;
  clinical_notes: string | null;
  patient_details: Record<string, unknown>;
  patient_address: Record<string, unknown>;
  details: { type: string };
  events: { id: number; status: string; created_at: string }[];
  created_at: string;
}

export function orderBody(userId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_id: userId,
    lab_test_id: labTestId('quest', 'Essential Metabolic Health'),
    patient_details: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      dob: '1980-04-02',
      gender: 'female',
      phone_number: '+15555550100',
      email: 'ada@example.com',
    },
    patient_address: {
      first_line: '1 Main Street',
      city: 'Austin',
      state: 'TX',
      zip: '73301',
      country: 'US',
      access_notes: 'Gate code 4711',
    },
    clinical_notes: 'Patient prefers morning draws.',
    ...overrides,
  };
}

export async function startLabService(): Promise<LabServiceFixture> {
  // A copy of this run's `service-lab` template, or seeded here when there is none.
  const service = await startService('service-lab');
  if (!service.seeded) {
    await syncLabCatalogue(service.db);
    await ensureDemoLabAccounts(service.db, service.team.teamId);
    await ensureDemoLabAccounts(service.db, service.otherTeam.teamId);
  }

  const call: LabServiceFixture['call'] = async (team, method, path, body, headers = {}) => {
    const res = await fetch(service.url + path, {
      method,
      headers: {
        'x-service-api-key': team.apiKey,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as never };
  };

  return {
    ...service,
    call,
    async placeOrder(team, userId, overrides = {}) {
      const r = await call<{ order: WireOrder }>(team, 'POST', '/v3/order/create', orderBody(userId, overrides), {
        'x-idempotency-key': randomUUID(),
      });
      if (r.status !== 200) throw new Error(`placing an order answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body.order;
    },
    async driveOrder(team, orderId, finalStatus) {
      const r = await call<{ order: WireOrder }>(team, 'POST', `/v3/order/${orderId}/test?final_status=${encodeURIComponent(finalStatus)}&delay=0`);
      if (r.status !== 200) throw new Error(`driving ${orderId} to ${finalStatus} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body.order;
    },
  };
}
