/**
 * Seeding webhook endpoints and their delivery logs in the real service, for the page tests:
 * endpoints through the service's own API, an endpoint the service itself disabled after its
 * receiver answered 410, and delivery rows (with their attempts) written straight into the
 * service's tables where a test needs a log of a given shape at given times without waiting on
 * real retries.
 */
import { webhookDeliveries, webhookDeliveryAttempts, webhookOutbox } from '../../../server/service/db/schema';
import type { Team } from '../../bff/harness';
import type { LabServiceFixture } from '../../bff/ordersFixture';
import { deliverDueWebhooks } from '../../bff/webhookJobs';
import { WebhookReceiver } from '../../service/webhookReceiver';

export interface ServiceEndpoint {
  id: string;
  url: string;
  event_types: string[];
  description: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  secret?: string;
}

/** Creates an endpoint through the service's API (POST /v2/webhooks/endpoints). */
export async function createEndpoint(service: LabServiceFixture, team: Team, body: { url: string; event_types?: string[]; description?: string }): Promise<ServiceEndpoint> {
  const r = await service.call<ServiceEndpoint>(team, 'POST', '/v2/webhooks/endpoints', body);
  if (r.status !== 200 && r.status !== 201) throw new Error(`creating a webhook endpoint answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * An endpoint the service disabled itself: its receiver (on 127.0.0.1) answered an order event
 * with 410 Gone. Run this before any other endpoint exists, so the event goes to this one only.
 * Its URL is then changed to `url` (the service keeps it disabled), as the page shows it.
 */
export async function endpointGone(service: LabServiceFixture, team: Team, patientId: string, url: string): Promise<ServiceEndpoint> {
  const receiver = await WebhookReceiver.start(() => ({ status: 410 }));
  try {
    const endpoint = await createEndpoint(service, team, { url: receiver.url() });
    await service.placeOrder(team, patientId);
    await deliverDueWebhooks(service.db);
    if (receiver.received.length === 0) throw new Error('the 410 receiver got no delivery');
    const r = await service.call<ServiceEndpoint>(team, 'PATCH', `/v2/webhooks/endpoints/${endpoint.id}`, { url });
    if (r.status !== 200 || !r.body.disabled_at) throw new Error(`the gone endpoint: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  } finally {
    await receiver.close();
  }
}

export interface SeededAttempt {
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface SeededDelivery {
  id: string;
  event_type: string;
  subject_id?: string;
  status: 'succeeded' | 'failed' | 'pending' | 'cancelled';
  created_at: string;
  attempts: SeededAttempt[];
}

/**
 * Deliveries of an endpoint, written into the service's tables in the given order (the service
 * lists them newest event first, by the order their events were emitted): the outbox event, the
 * delivery (status, counts and last answer from its attempts) and each attempt.
 */
export async function seedDeliveries(service: LabServiceFixture, team: Team, endpointId: string, deliveries: SeededDelivery[]): Promise<void> {
  for (const d of deliveries) {
    const created = new Date(d.created_at);
    const [event] = await service.db
      .insert(webhookOutbox)
      .values({
        teamId: team.teamId,
        eventType: d.event_type,
        payload: { event_type: d.event_type, team_id: team.teamId, data: { id: d.subject_id ?? null } },
        createdAt: created,
        dispatchedAt: created,
      })
      .returning();
    const last = d.attempts.at(-1);
    await service.db.insert(webhookDeliveries).values({
      id: d.id,
      teamId: team.teamId,
      endpointId,
      seq: event!.id,
      eventId: event!.eventId,
      eventType: d.event_type,
      subject: d.subject_id ?? null,
      status: d.status,
      attemptCount: d.attempts.length,
      lastAttemptAt: last ? new Date(last.attempted_at) : null,
      lastStatusCode: last?.status_code ?? null,
      lastError: last?.error ?? null,
      deliveredAt: d.status === 'succeeded' && last ? new Date(new Date(last.attempted_at).getTime() + last.duration_ms) : null,
      createdAt: created,
      updatedAt: created,
    });
    if (d.attempts.length) {
      await service.db.insert(webhookDeliveryAttempts).values(
        d.attempts.map((a) => ({
          deliveryId: d.id,
          attemptedAt: new Date(a.attempted_at),
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          error: a.error,
        })),
      );
    }
  }
}
