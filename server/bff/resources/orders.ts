import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ORDERS_MAX_SIZE, type Order } from '../../contract';
import { CancelOrderBody, CreateOrder, ErrorBody, IDEMPOTENCY_HEADER, IdempotencyHeaders, IdParams, isUuid, MAX_GET_MANY, OrderRecord, OrdersList } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { fetchRange, sendAll, sendList, type RangeResult } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { planOrdersList } from './orderQuery';
import { sendPdf } from './sendPdf';
import { readQueue } from '../triage/queue';
import { addNote } from '../triage/store';

export { IDEMPOTENCY_HEADER };

const notFound = () => new BffError(404, 'Order not found');
const TAGS = ['orders'];

async function getOrderOrNull(client: ServiceClient, id: string): Promise<Order | null> {
  if (!isUuid(id)) return null;
  try {
    return await client.getOrder(id);
  } catch (err) {
    // Unknown, another team's, or malformed: all simply "not found".
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
    throw err;
  }
}

/** Reads records 8 at a time (a reference field may ask for a whole page of ids); unknown ones are left out. */
export async function readMany<T>(ids: string[], read: (id: string) => Promise<T | null>): Promise<T[]> {
  const found: T[] = [];
  const unique = ids.slice(0, MAX_GET_MANY);
  for (let i = 0; i < unique.length; i += 8) {
    for (const r of await Promise.all(unique.slice(i, i + 8).map(read))) if (r) found.push(r);
  }
  return found;
}

/**
 * react-admin resource `orders` (list over the service's page/size pagination, getOne, getMany,
 * create) plus cancel and the requisition PDF. Every access is audited with order ids only.
 */
export function ordersResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('orders:read', 'see lab orders');
    const canWrite = requirePermission('orders:write', 'place or cancel lab orders');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listOrders', tags: TAGS, querystring: OrdersList, response: { 200: z.array(OrderRecord), '4XX': ErrorBody } },
        config: { audit: { resource: 'orders', action: 'list' } },
      },
      async (req, reply) => {
        const params = req.query;
        if (params.filter.id) {
          req.auditNote.action = 'read';
          return sendAll(reply, 'orders', await readMany(params.filter.id, (id) => getOrderOrNull(client, id)));
        }
        const plan = planOrdersList(params);
        req.auditNote.detail = plan.auditDetail;
        if (params.sort.field === 'time_in_status' && params.filter.needs_attention !== true) {
          throw new BffError(400, 'Orders sort by time in status only in the needs-attention queue', { sort: 'time_in_status needs filter.needs_attention' });
        }
        let result: RangeResult<Order>;
        if (plan.query === null) {
          result = { items: [], total: 0, hasNextPage: false, upstreamCalls: 0 };
        } else {
          const query = plan.query;
          // A deployment without the critical-result filter would answer every order as if it were critical.
          if (query.critical_acknowledged === false && !(await client.knowsCriticalFilter())) {
            throw new BffError(501, 'This service cannot list orders by unacknowledged critical result');
          }
          if (params.filter.needs_attention === true) {
            // The triage queue: read whole, without resolved orders, sorted by the BFF (server/bff/triage/queue.ts).
            const { records, upstreamCalls } = await readQueue(client, app.bffDb, query, params.sort);
            const [first, last] = params.range;
            result = { items: records.slice(first, last + 1), total: records.length, hasNextPage: last + 1 < records.length, upstreamCalls };
          } else {
            result = await fetchRange(
              {
                kind: 'page',
                maxSize: ORDERS_MAX_SIZE,
                fetch: async (page, size) => {
                  const answer = await client.listOrders({ ...query, page, size });
                  return { items: answer.orders, total: answer.total };
                },
              },
              params.range,
            );
          }
        }
        return sendList(reply, 'orders', params.range[0], result);
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getOrder', tags: TAGS, params: IdParams, response: { 200: OrderRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'orders', action: 'read' } },
      },
      async (req) => {
        const order = await getOrderOrNull(client, req.params.id);
        if (!order) throw notFound();
        return order;
      },
    );

    app.post(
      '',
      {
        preValidation: canWrite,
        schema: {
          operationId: 'createOrder',
          tags: TAGS,
          headers: IdempotencyHeaders,
          body: CreateOrder,
          response: { 201: OrderRecord, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'orders', action: 'create' } },
      },
      async (req, reply) => {
        const given = req.headers[IDEMPOTENCY_HEADER];
        // The browser's key (one per form submission) passes through, so a double-clicked or retried
        // submit is answered with the first order. Without one, the BFF still sends a fresh key.
        const key = given ?? randomUUID();
        const { id: _reactAdminId, ...order } = req.body;
        req.auditNote.patientIds = [order.user_id];
        req.auditNote.detail = { lab_account_id: order.lab_account_id ?? null, client_idempotency_key: given !== undefined };
        const created = await client.createOrder(order, key);
        return reply.status(201).send(created.order);
      },
    );

    app.post(
      '/:id/cancel',
      {
        preValidation: canWrite,
        schema: {
          operationId: 'cancelOrder',
          description: 'The `reason` is kept as a staff note on the order (the service’s cancel takes none and is never sent it).',
          tags: TAGS,
          params: IdParams,
          body: CancelOrderBody.nullish(),
          response: { 200: OrderRecord, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'orders', action: 'cancel' } },
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw notFound();
        try {
          const { order } = await client.cancelOrder(id);
          const reason = req.body?.reason;
          if (reason) {
            const { id: staffId, name, email } = req.session!.user;
            await addNote(app.bffDb, order.id, { id: staffId, name, email }, `Cancelled: ${reason}`);
            req.auditNote.detail = { reason_noted: true };
          }
          return order;
        } catch (err) {
          // Anything but "unknown" (e.g. the order is already final) keeps the service's status and message.
          if (err instanceof UpstreamError && err.status === 404) throw notFound();
          throw err;
        }
      },
    );

    app.get(
      '/:id/requisition.pdf',
      {
        preValidation: canRead,
        schema: {
          operationId: 'getOrderRequisition',
          tags: TAGS,
          params: IdParams,
          produces: ['application/pdf'],
          response: { 200: z.any().describe('The requisition PDF'), '4XX': ErrorBody },
        },
        config: { audit: { resource: 'order_requisitions', action: 'download' } },
      },
      async (req, reply) => {
        const { id } = req.params;
        if (!isUuid(id)) throw notFound();
        let pdf;
        try {
          pdf = await client.orderRequisitionPdf(id);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) throw notFound();
          throw err;
        }
        return sendPdf(reply, pdf, { what: 'the requisition', disposition: 'attachment', fileName: `requisition-${id.toLowerCase()}.pdf` });
      },
    );
  };
}
