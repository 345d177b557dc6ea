import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Order, OrdersQuery } from '../../../contract';
import type { Database } from '../../../store/db';
import { orderResults, orders, users, type ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import { unfilteredOrderPage } from './pageRows';
import { orderWithEvents, presentOrders } from './present';

type Db = Database<ServiceSchema>;
export type OrdersQueryInput = z.infer<typeof OrdersQuery>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * A date bound of the list query: YYYY-MM-DD means 00:00:00 (start) or 23:59:59.999 (end) UTC;
 * an ISO date-time is taken as given (UTC when it carries no offset). Anything else is 422.
 */
export function parseDateBound(value: string, bound: 'start' | 'end', param: string): Date {
  const v = value.trim();
  const text = DATE_ONLY.test(v) ? `${v}T${bound === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : HAS_ZONE.test(v) ? v : `${v}Z`;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms)) throw new Invalid(['query', param], 'must be a date YYYY-MM-DD or an ISO-8601 date-time', 'value_error.date');
  return new Date(ms);
}

/** A LIKE pattern matching `s` anywhere, with LIKE's own wildcards taken literally. */
const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const firstName = sql`coalesce(${orders.patientDetails}->>'first_name', '')`;
const lastName = sql`coalesce(${orders.patientDetails}->>'last_name', '')`;
const fullName = sql`(${firstName} || ' ' || ${lastName})`;
/** When the order last changed status: its latest event. */
const lastStatusAt = sql`(select max(e.created_at) from "service"."order_events" e where e.order_id = ${orders.id})`;

function filters(teamId: string, q: OrdersQueryInput): SQL[] {
  const where: SQL[] = [eq(orders.teamId, teamId)];
  // Unknown status or method values are accepted: they simply match nothing (the enums may grow).
  const criticalUnacknowledged = sql`${orders.id} in (select ${orderResults.orderId} from ${orderResults} where ${orderResults.teamId} = ${teamId} and ${orderResults.criticalNotifiedAt} is not null and ${orderResults.criticalAcknowledgedAt} is null)`;
  if (q.status?.length) {
    const byStatus = inArray(orders.lowLevelStatus, q.status);
    where.push(q.include_critical_unacknowledged ? or(byStatus, criticalUnacknowledged)! : byStatus);
  }
  if (q.order_type?.length) where.push(inArray(orders.collectionMethod, q.order_type));
  if (q.user_id) where.push(eq(orders.userId, q.user_id));
  if (q.order_ids?.length) where.push(inArray(orders.id, q.order_ids));
  if (q.interpretation?.length) where.push(inArray(orders.interpretation, q.interpretation));
  if (q.critical_acknowledged === false) where.push(criticalUnacknowledged);
  if (q.critical_acknowledged === true) {
    where.push(
      sql`${orders.id} in (select ${orderResults.orderId} from ${orderResults} where ${orderResults.teamId} = ${teamId} and ${orderResults.criticalAcknowledgedAt} is not null)`,
    );
  }
  if (q.start_date) where.push(gte(orders.createdAt, parseDateBound(q.start_date, 'start', 'start_date')));
  if (q.end_date) where.push(lte(orders.createdAt, parseDateBound(q.end_date, 'end', 'end_date')));
  if (q.updated_start_date) where.push(gte(orders.updatedAt, parseDateBound(q.updated_start_date, 'start', 'updated_start_date')));
  if (q.updated_end_date) where.push(lte(orders.updatedAt, parseDateBound(q.updated_end_date, 'end', 'updated_end_date')));
  const name = q.patient_name?.trim();
  if (name) where.push(sql`${fullName} ilike ${contains(name)}`);
  const search = q.search_input?.trim();
  if (search) {
    const p = contains(search);
    where.push(
      or(
        sql`${orders.id}::text ilike ${p}`,
        sql`coalesce(${orders.sampleId}, '') ilike ${p}`,
        sql`${fullName} ilike ${p}`,
        sql`(${lastName} || ' ' || ${firstName}) ilike ${p}`,
        sql`${orders.userId} in (select ${users.id} from ${users} where ${users.teamId} = ${teamId} and ${users.clientUserId} ilike ${p})`,
      )!,
    );
  }
  return where;
}

function ordering(q: OrdersQueryInput): SQL[] {
  const dir = q.order_direction === 'asc' ? asc : desc;
  switch (q.order_key) {
    case 'patient_name':
      return [dir(sql`lower(${lastName})`), dir(sql`lower(${firstName})`), dir(orders.createdAt), dir(orders.id)];
    case 'last_status':
      return [dir(lastStatusAt), dir(orders.createdAt), dir(orders.id)];
    default:
      return [dir(orders.createdAt), dir(orders.id)];
  }
}

/** GET /v3/orders: the team's orders matching the filters, one page (page numbers from 1). */
export async function listOrders(db: Db, teamId: string, q: OrdersQueryInput): Promise<{ orders: Order[]; total: number; page: number; size: number }> {
  const conditions = filters(teamId, q);
  const where = and(...conditions);
  const offset = (q.page - 1) * q.size;
  // The page, its events and the number of matching orders in one query (the count is taken
  // before LIMIT); only a page past the end has no row to carry the count and asks again. With no
  // filter but the team's and the default order (what a client paging through its orders sends),
  // the query is built once and prepared, its rows read as arrays (orders/pageRows.ts): building
  // it per request cost more than running it, and mapping its rows with drizzle more again.
  const rows =
    conditions.length === 1 && q.order_key === 'created_at'
      ? await unfilteredOrderPage(db, teamId, q.order_direction, q.size, offset)
      : await db
          .select({ ...orderWithEvents, total: sql<string | number>`count(*) over ()`.as('total') })
          .from(orders)
          .where(where)
          .orderBy(...ordering(q))
          .limit(q.size)
          .offset(offset);
  const total = rows.length ? Number(rows[0]!.total) : Number((await db.select({ n: count() }).from(orders).where(where))[0]?.n ?? 0);
  return { orders: await presentOrders(db, rows), total, page: q.page, size: q.size };
}
