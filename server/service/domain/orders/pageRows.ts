import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { isoText, num, rawRows, text, textOrNull } from '../../../store/rawRows';
import { orders, type ServiceSchema } from '../../db/schema';
import { eventsJsonSql, type EventsJson, type PresentableOrder } from './present';

type Db = Database<ServiceSchema>;

/**
 * The order page as a client pages through it (no filter but the team's, in creation order), read
 * through the driver as arrays (server/store/rawRows.ts): drizzle's mapping of ~30 columns per
 * order, and a `Date` parsed per timestamp and per event to be formatted again, cost more than the
 * query. The columns, in the order selected; the reader finds each by its name's position.
 */
const selected = {
  id: sql`${orders.id}`,
  teamId: sql`${orders.teamId}`,
  userId: sql`${orders.userId}`,
  labTestId: sql`${orders.labTestId}`,
  labAccountId: sql`${orders.labAccountId}`,
  collectionMethod: sql`${orders.collectionMethod}`,
  status: sql`${orders.status}`,
  lowLevelStatus: sql`${orders.lowLevelStatus}`,
  origin: sql`${orders.origin}`,
  patientDetails: sql`${orders.patientDetails}`,
  patientAddress: sql`${orders.patientAddress}`,
  physician: sql`${orders.physician}`,
  billingType: sql`${orders.billingType}`,
  icdCodes: sql`${orders.icdCodes}`,
  consents: sql`${orders.consents}`,
  healthInsurance: sql`${orders.healthInsurance}`,
  healthInsuranceId: sql`${orders.healthInsuranceId}`,
  priority: sql`${orders.priority}`,
  activateBy: sql`${orders.activateBy}`,
  passthrough: sql`${orders.passthrough}`,
  clinicalNotes: sql`${orders.clinicalNotes}`,
  sampleId: sql`${orders.sampleId}`,
  notes: sql`${orders.notes}`,
  updateReason: sql`${orders.updateReason}`,
  originalOrderId: sql`${orders.originalOrderId}`,
  detailsId: sql`${orders.detailsId}`,
  appointmentId: sql`${orders.appointmentId}`,
  shipment: sql`${orders.shipment}`,
  interpretation: sql`${orders.interpretation}`,
  hasMissingResults: sql`${orders.hasMissingResults}`,
  createdAt: isoText(orders.createdAt),
  updatedAt: isoText(orders.updatedAt),
  events: eventsJsonSql,
  total: sql`count(*) OVER ()`,
} satisfies Record<string, SQL>;

type Column = keyof typeof selected;
const position = Object.fromEntries(Object.keys(selected).map((key, i) => [key, i])) as Record<Column, number>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const recordOrNull = (v: unknown): Record<string, unknown> | null => (isRecord(v) ? v : null);
const listOrNull = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);
const textListOrNull = (v: unknown): string[] | null => (Array.isArray(v) ? v.map(String) : null);
const booleanOrNull = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const eventsOf = (v: unknown): EventsJson =>
  Array.isArray(v) ? v.map((e: unknown) => ({ id: num(field(e, 'id')), created_at: text(field(e, 'created_at')), status: text(field(e, 'status')) })) : [];
const field = (o: unknown, key: string): unknown => (isRecord(o) ? o[key] : undefined);

export type OrderPageRow = PresentableOrder & { events: EventsJson; total: number };

function orderOf(row: unknown[]): OrderPageRow {
  const at = (column: Column) => row[position[column]];
  return {
    id: text(at('id')),
    teamId: text(at('teamId')),
    userId: text(at('userId')),
    labTestId: text(at('labTestId')),
    labAccountId: textOrNull(at('labAccountId')),
    collectionMethod: text(at('collectionMethod')),
    status: text(at('status')),
    lowLevelStatus: text(at('lowLevelStatus')),
    origin: text(at('origin')),
    patientDetails: recordOrNull(at('patientDetails')) ?? {},
    patientAddress: recordOrNull(at('patientAddress')) ?? {},
    physician: recordOrNull(at('physician')),
    billingType: textOrNull(at('billingType')),
    icdCodes: textListOrNull(at('icdCodes')),
    consents: listOrNull(at('consents')),
    healthInsurance: recordOrNull(at('healthInsurance')),
    healthInsuranceId: textOrNull(at('healthInsuranceId')),
    priority: at('priority') === true,
    activateBy: textOrNull(at('activateBy')),
    passthrough: textOrNull(at('passthrough')),
    clinicalNotes: textOrNull(at('clinicalNotes')),
    sampleId: textOrNull(at('sampleId')),
    notes: textOrNull(at('notes')),
    updateReason: textOrNull(at('updateReason')),
    originalOrderId: textOrNull(at('originalOrderId')),
    detailsId: text(at('detailsId')),
    appointmentId: textOrNull(at('appointmentId')),
    shipment: recordOrNull(at('shipment')),
    interpretation: textOrNull(at('interpretation')),
    hasMissingResults: booleanOrNull(at('hasMissingResults')),
    createdAt: text(at('createdAt')),
    updatedAt: text(at('updatedAt')),
    events: eventsOf(at('events')),
    total: num(at('total')),
  };
}

/** One page of the team's orders in creation order, with its events and the team's count. */
export async function unfilteredOrderPage(db: Db, teamId: string, direction: 'asc' | 'desc', limit: number, offset: number) {
  const dir = direction === 'asc' ? asc : desc;
  const read = rawRows(db, `orders_page_rows_${direction}`, () => sql`SELECT ${sql.join(Object.values(selected), sql`, `)}
    FROM ${orders} WHERE ${orders.teamId} = ${sql.placeholder('teamId')}
    ORDER BY ${dir(orders.createdAt)}, ${dir(orders.id)} LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`);
  return (await read({ teamId, limit, offset })).map(orderOf);
}
