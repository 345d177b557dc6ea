import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ORDERS_MAX_SIZE, type Order } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { fetchRange, listHeaders, parseListParams, type RangeResult } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { idsFilter, isUuid } from './filters';
import { planOrdersList } from './orderQuery';

/** The record is the service's ClientFacingOrder as is (it carries `id`). */
export type OrderRecord = Order;

const IdParams = z.object({ id: z.string().min(1).max(100) });
/** What the service accepts as an idempotency key is its business; the BFF only refuses junk. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

const notFound = () => new BffError(404, 'Order not found');

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

/**
 * react-admin resource `orders` (list over the service's page/size pagination, getOne, getMany,
 * create) plus cancel and the requisition PDF. Every access is audited with order ids only.
 */
export function ordersResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canRead = requirePermission('orders:read', 'see lab orders');
    const canWrite = requirePermission('orders:write', 'place or cancel lab orders');

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>, { defaultSort: { field: 'created_at', order: 'DESC' } });
      const ids = idsFilter(params.filter);
      if (ids) {
        const found: Order[] = [];
        const unique = ids.slice(0, 100);
        for (let i = 0; i < unique.length; i += 8) {
          const batch = await Promise.all(unique.slice(i, i + 8).map((id) => getOrderOrNull(client, id)));
          for (const o of batch) if (o) found.push(o);
        }
        await audit(app.bffDb, req, { action: 'read', resource: 'orders', recordIds: found.map((o) => o.id) });
        return reply.headers(listHeaders('orders', 0, { items: found, total: found.length, hasNextPage: false })).send(found);
      }

      const plan = planOrdersList(params);
      let result: RangeResult<Order>;
      if (plan.query === null) {
        result = { items: [], total: 0, hasNextPage: false, upstreamCalls: 0 };
      } else {
        const query = plan.query;
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
      await audit(app.bffDb, req, {
        action: 'list',
        resource: 'orders',
        recordIds: result.items.map((o) => o.id),
        detail: plan.auditDetail,
      });
      return reply.headers(listHeaders('orders', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const order = await getOrderOrNull(client, id);
      if (!order) throw notFound();
      await audit(app.bffDb, req, { action: 'read', resource: 'orders', recordIds: [order.id] });
      return order;
    });

    app.post('/', { preHandler: canWrite }, async (req, reply) => {
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw new BffError(400, 'The order must be a JSON object');
      }
      const given = req.headers[IDEMPOTENCY_HEADER];
      if (given !== undefined && (typeof given !== 'string' || !IDEMPOTENCY_KEY.test(given))) {
        throw new BffError(400, `${IDEMPOTENCY_HEADER} must be 1 to 200 printable characters`, {
          [IDEMPOTENCY_HEADER]: 'must be 1 to 200 printable characters',
        });
      }
      // The browser's key (one per form submission) passes through, so a double-clicked or retried
      // submit is answered with the first order. Without one, the BFF still sends a fresh key.
      const key = typeof given === 'string' ? given : randomUUID();
      // react-admin may send an `id` of its own; the service assigns ids.
      const { id: _ignored, ...order } = body as Record<string, unknown>;
      const userId = typeof order.user_id === 'string' ? order.user_id : null;
      const labAccountId = typeof order.lab_account_id === 'string' ? order.lab_account_id : null;
      let created;
      try {
        created = await client.createOrder(order, key);
      } catch (err) {
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, {
            action: 'create',
            resource: 'orders',
            recordIds: [],
            detail: { user_id: userId, lab_account_id: labAccountId, client_idempotency_key: given !== undefined },
            outcome: 'failed',
            statusCode: err.status,
          });
        }
        throw err;
      }
      await audit(app.bffDb, req, {
        action: 'create',
        resource: 'orders',
        recordIds: [created.order.id],
        detail: {
          user_id: created.order.user_id,
          lab_account_id: created.order.lab_account_id ?? null,
          client_idempotency_key: given !== undefined,
        },
      });
      return reply.status(201).send(created.order);
    });

    app.post('/:id/cancel', { preHandler: canWrite }, async (req) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw notFound();
      try {
        const answer = await client.cancelOrder(id);
        await audit(app.bffDb, req, { action: 'cancel', resource: 'orders', recordIds: [answer.order.id] });
        return answer.order;
      } catch (err) {
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, { action: 'cancel', resource: 'orders', recordIds: [id], outcome: 'failed', statusCode: err.status });
          if (err.status === 404) throw notFound();
        }
        // Anything else (e.g. the order is already final) keeps the service's status and message.
        throw err;
      }
    });

    app.get('/:id/requisition.pdf', { preHandler: canRead }, async (req, reply) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw notFound();
      let pdf;
      try {
        pdf = await client.orderRequisitionPdf(id);
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 404) throw notFound();
        throw err;
      }
      const type = pdf.contentType.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/pdf' && type !== 'application/octet-stream') {
        // Never serve another kind of upstream content from the dashboard's origin.
        pdf.body.destroy();
        throw new BffError(502, 'The service answered the requisition with something other than a PDF');
      }
      await audit(app.bffDb, req, { action: 'download', resource: 'order_requisitions', recordIds: [id.toLowerCase()] });
      reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="requisition-${id.toLowerCase()}.pdf"`)
        .header('cache-control', 'no-store');
      if (pdf.contentLength !== null) reply.header('content-length', String(pdf.contentLength));
      return reply.send(pdf.body);
    });
  };
}
