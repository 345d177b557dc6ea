import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Order, Shipment } from '../../../contract';
import type { Database } from '../../../store/db';
import { labs, labTests, markers, orderEvents, orders, type ServiceSchema } from '../../db/schema';
import { presentLabTest } from '../labs/present';
import { NotFound } from '../errors';
import { orderStatus } from './statuses';

type Db = Database<ServiceSchema>;
export type OrderRow = typeof orders.$inferSelect;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: string | null | undefined) => d ?? null;

/** ClientFacingOrder for each row, loading lab tests, labs, markers and events in a few queries. */
export async function presentOrders(db: Db, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const testIds = [...new Set(rows.map((r) => r.labTestId))];
  const tests = await db.select().from(labTests).where(inArray(labTests.id, testIds));
  const labIds = [...new Set(tests.map((t) => t.labId))];
  const markerIds = [...new Set(tests.flatMap((t) => t.markerIds))];
  // One after another: inside a transaction the queries share one connection.
  const labRows = labIds.length ? await db.select().from(labs).where(inArray(labs.id, labIds)) : [];
  const markerRows = markerIds.length ? await db.select().from(markers).where(inArray(markers.id, markerIds)) : [];
  const events = await db
    .select()
    .from(orderEvents)
    .where(
      inArray(
        orderEvents.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orderEvents.id));
  const testById = new Map(tests.map((t) => [t.id, t]));
  const labById = new Map(labRows.map((l) => [l.id, l]));
  const eventsByOrder = new Map<string, Order['events']>();
  for (const e of events) {
    const list = eventsByOrder.get(e.orderId) ?? [];
    list.push({ id: e.id, created_at: iso(e.createdAt), status: e.status });
    eventsByOrder.set(e.orderId, list);
  }
  return rows.map((r) => {
    const test = testById.get(r.labTestId)!;
    const orderEventsList = eventsByOrder.get(r.id) ?? [];
    const physician = r.physician as { first_name?: string; last_name?: string; npi?: string } | null;
    const addr = r.patientAddress;
    return {
      user_id: r.userId,
      id: r.id,
      team_id: r.teamId,
      patient_details: r.patientDetails,
      patient_address: r.patientAddress,
      lab_test: presentLabTest(test, labById.get(test.labId), markerRows),
      details: {
        type: r.collectionMethod,
        data: {
          id: r.detailsId,
          created_at: iso(r.createdAt),
          updated_at: iso(r.updatedAt),
          appointment_id: r.appointmentId,
          shipment: (r.shipment as z.infer<typeof Shipment> | null) ?? null,
        },
      },
      sample_id: r.sampleId,
      notes: r.notes,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      events: orderEventsList,
      status: r.status,
      low_level_status: r.lowLevelStatus,
      last_event: orderEventsList[orderEventsList.length - 1] ?? null,
      physician:
        physician?.first_name && physician.last_name && physician.npi
          ? { first_name: physician.first_name, last_name: physician.last_name, npi: physician.npi }
          : null,
      health_insurance_id: null,
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
  return (await presentOrders(db, [await findOrderRow(db, teamId, orderId)]))[0]!;
}

export { orderStatus };
