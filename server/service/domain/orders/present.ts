import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Order, Shipment } from '../../../contract';
import type { Database } from '../../../store/db';
import { isoText } from '../../../store/rawRows';
import { orderEvents, orders, type ServiceSchema } from '../../db/schema';
import { catalogueRows } from '../labs/catalogueCache';
import { presentLabTest } from '../labs/present';
import { NotFound } from '../errors';
import { orderStatus } from './statuses';

type Db = Database<ServiceSchema>;
export type OrderRow = typeof orders.$inferSelect;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: string | null | undefined) => d ?? null;

/** An order's events as the list query reads them with its row (one JSON array, oldest first). */
export type EventsJson = { id: number; created_at: string; status: string }[];

/**
 * The row's events as one JSON column of the same query: an order list or an order read is one
 * round trip to the store for its data (the catalogue rows it embeds are remembered).
 */
// The order's id is written out qualified: in a select list drizzle leaves a single table's columns
// bare, and a bare "id" here would be the event's.
// created_at is ISO text already (server/store/rawRows.ts), so no `Date` is parsed per event.
export const eventsJsonSql = sql<EventsJson>`coalesce((select json_agg(json_build_object('id', e.id, 'created_at', ${isoText(sql`e.created_at`)}, 'status', e.status) order by e.id)
  from ${orderEvents} e where e.order_id = ${orders}.${sql.identifier(orders.id.name)}), '[]'::json)`;
export const eventsJson = eventsJsonSql.as('events');

/** The row's columns and its events: what `presentOrders` presents without asking the store again. */
export const orderWithEvents = { ...getTableColumns(orders), events: eventsJson };
export type OrderRowWithEvents = OrderRow & { events: EventsJson };

/**
 * What `presentOrders` reads of a row: every column but the answers to the lab's questions, and the
 * timestamps either as read by drizzle or as ISO text already (the list's rows, orders/pageRows.ts).
 */
export type PresentableOrder = Omit<OrderRow, 'aoeAnswers' | 'createdAt' | 'updatedAt'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
};
const isoOf = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());

/** Consents as recorded; rows written before times and versions were recorded answer null for them. */
function presentConsents(raw: unknown[] | null): Order['consents'] {
  if (!raw?.length) return null;
  return raw.map((c) => {
    const x = c as { consentType?: unknown; version?: unknown; timeOfConsent?: unknown };
    return {
      consentType: String(x.consentType ?? ''),
      version: typeof x.version === 'string' ? x.version : null,
      timeOfConsent: typeof x.timeOfConsent === 'string' ? x.timeOfConsent : null,
    };
  });
}

/** ClientFacingOrder for each row; rows read with `orderWithEvents` bring their events along. */
export async function presentOrders(db: Db, rows: (PresentableOrder | (PresentableOrder & { events: EventsJson }))[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const { testById, labById, markerRows } = await catalogueRows(db, [...new Set(rows.map((r) => r.labTestId))]);
  const eventsByOrder = new Map<string, Order['events']>();
  const withoutEvents = rows.filter((r) => !('events' in r));
  if (withoutEvents.length) {
    const events = await db
      .select()
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, withoutEvents.map((r) => r.id)))
      .orderBy(asc(orderEvents.id));
    for (const e of events) {
      const list = eventsByOrder.get(e.orderId) ?? [];
      list.push({ id: e.id, created_at: iso(e.createdAt), status: e.status });
      eventsByOrder.set(e.orderId, list);
    }
  }
  for (const r of rows) {
    if ('events' in r) eventsByOrder.set(r.id, r.events.map((e) => ({ id: Number(e.id), created_at: String(e.created_at), status: e.status })));
  }
  // Orders of a page mostly share a few lab tests, each with all its markers: present each once.
  const labTests = new Map<string, Order['lab_test']>();
  const labTestOf = (id: string) => {
    let presented = labTests.get(id);
    if (!presented) {
      const test = testById.get(id)!;
      labTests.set(id, (presented = presentLabTest(test, labById.get(test.labId), markerRows)));
    }
    return presented;
  };
  return rows.map((r) => {
    const orderEventsList = eventsByOrder.get(r.id) ?? [];
    const physician = r.physician as { first_name?: string; last_name?: string; npi?: string } | null;
    const addr = r.patientAddress;
    return {
      user_id: r.userId,
      id: r.id,
      team_id: r.teamId,
      patient_details: r.patientDetails,
      patient_address: r.patientAddress,
      lab_test: labTestOf(r.labTestId),
      details: {
        type: r.collectionMethod,
        data: {
          id: r.detailsId,
          created_at: isoOf(r.createdAt),
          updated_at: isoOf(r.updatedAt),
          appointment_id: r.appointmentId,
          shipment: (r.shipment as z.infer<typeof Shipment> | null) ?? null,
        },
      },
      sample_id: r.sampleId,
      notes: r.notes,
      created_at: isoOf(r.createdAt),
      updated_at: isoOf(r.updatedAt),
      events: orderEventsList,
      status: r.status,
      low_level_status: r.lowLevelStatus,
      last_event: orderEventsList[orderEventsList.length - 1] ?? null,
      physician:
        physician?.first_name && physician.last_name && physician.npi
          ? { first_name: physician.first_name, last_name: physician.last_name, npi: physician.npi }
          : null,
      health_insurance_id: r.healthInsuranceId,
      health_insurance: (r.healthInsurance as Order['health_insurance']) ?? null,
      consents: presentConsents(r.consents),
      requisition_form_url: null,
      priority: r.priority,
      shipping_details:
        r.collectionMethod === 'testkit'
          ? {
              receiver_name: addr.receiver_name ?? `${String(r.patientDetails.first_name ?? '')} ${String(r.patientDetails.last_name ?? '')}`.trim(),
              first_line: addr.first_line,
              second_line: addr.second_line ?? null,
              city: addr.city,
              state: addr.state,
              zip: addr.zip,
              country: addr.country ?? 'US',
              phone_number: addr.phone_number ?? r.patientDetails.phone_number ?? '',
            }
          : null,
      activate_by: isoOrNull(r.activateBy),
      passthrough: r.passthrough,
      billing_type: r.billingType,
      icd_codes: r.icdCodes,
      has_abn: false,
      interpretation: r.interpretation,
      has_missing_results: r.hasMissingResults,
      expected_result_by_date: null,
      worst_case_result_by_date: null,
      lab_account_id: r.labAccountId,
      clinical_notes: r.clinicalNotes,
      origin: r.origin,
      update_reason: r.updateReason,
      original_order_id: r.originalOrderId,
    };
  });
}

/** The team's order row, or 404: another team's order is answered exactly like an unknown one. */
export async function findOrderRow(db: Db, teamId: string, orderId: string): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.teamId, teamId), eq(orders.id, orderId)));
  if (!row) throw new NotFound('Order');
  return row;
}

export async function getOrder(db: Db, teamId: string, orderId: string): Promise<Order> {
  const [row] = await db
    .select(orderWithEvents)
    .from(orders)
    .where(and(eq(orders.teamId, teamId), eq(orders.id, orderId)));
  if (!row) throw new NotFound('Order');
  return (await presentOrders(db, [row]))[0]!;
}

export { orderStatus };
