import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Appointment, Order } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { ACTIVE_APPOINTMENT_STATUSES, AppointmentDirectory, type DirectoryEntry, type DirectoryOptions } from './appointmentDirectory';
import {
  AppointmentError,
  mapActionError,
  noAppointment,
  orderNotFound,
  type AppointmentAction,
} from './appointmentErrors';
import { planAppointmentsList } from './appointmentQuery';
import { idsFilter, isUuid, sliceRange } from './filters';

const IdParams = z.object({ id: z.string().min(1).max(100) });
const RESOURCE = 'appointments';
/** A cancellation reason id is a short slug from the service's list: safe to keep in the audit trail. */
const REASON_ID = /^[A-Za-z0-9_.-]{1,100}$/;

/** The order id of an action's path; a malformed one is answered like an unknown order, without a call. */
function orderIdOf(req: FastifyRequest, notFound: () => BffError): string {
  const { id } = IdParams.parse(req.params);
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function objectBody(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new BffError(400, 'The body must be a JSON object');
  return body;
}

/**
 * The order's patient address in the shape availability wants. Orders carry `zip`; the USAddress
 * names it `zip_code`. `access_notes` are kept: the dashboard shows them beside the slots.
 */
function orderAddress(order: Order): Record<string, unknown> {
  const a = order.patient_address ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const address = {
    first_line: str(a.first_line),
    second_line: str(a.second_line) ?? null,
    city: str(a.city),
    state: str(a.state),
    zip_code: str(a.zip) ?? str(a.zip_code),
    access_notes: str(a.access_notes) ?? null,
  };
  if (!address.first_line || !address.city || !address.state || !address.zip_code) {
    throw new BffError(422, 'The order has no complete patient address; give the address to search', {
      address: 'the order has no complete patient address',
    });
  }
  return address;
}

/** What the audit trail keeps of an appointment: ids and the provider, never address, notes or key. */
const auditOf = (a: Appointment) => ({ appointment_id: a.id, provider: a.provider, status: a.status });

/**
 * react-admin resource `appointments` (list, getOne, getMany by order id, cancellation reasons)
 * and the actions on an order's appointment under /orders/<id>/appointment/. Registered at the
 * /api level with full paths: the orders resource owns /orders/:id, these add deeper static
 * paths, which the router tells apart. Every access is audited with ids only.
 */
export function appointmentsResource(client: ServiceClient, opts: DirectoryOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const directory = new AppointmentDirectory(client, opts);
    const canRead = requirePermission('appointments:read', 'see appointments');
    const canWrite = requirePermission('appointments:write', 'book, reschedule or cancel appointments');

    // --- The resource -----------------------------------------------------------------------

    app.get('/appointments', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>, { defaultSort: { field: 'start_at', order: 'ASC' } });
      const ids = idsFilter(params.filter);
      if (ids) {
        const found = (await directory.readMany(ids.slice(0, 100))).map((e) => e.record);
        await audit(app.bffDb, req, { action: 'read', resource: RESOURCE, recordIds: found.map((r) => r.id) });
        return reply.headers(listHeaders(RESOURCE, 0, { items: found, total: found.length, hasNextPage: false })).send(found);
      }

      const plan = planAppointmentsList(params);
      let entries: DirectoryEntry[];
      let walked: { orders: number; complete: boolean };
      if (plan.orderId) {
        const one = await directory.readOne(plan.orderId);
        entries = one ? [one] : [];
        walked = { orders: 1, complete: true };
      } else {
        const walk = await directory.walk(plan.scope);
        entries = walk.entries;
        walked = { orders: walk.ordersWalked, complete: walk.complete };
      }
      const kept = entries.filter(plan.matches).sort(plan.compare);
      const result = sliceRange(
        kept.map((e) => e.record),
        params.range,
      );
      await audit(app.bffDb, req, {
        action: 'list',
        resource: RESOURCE,
        recordIds: result.items.map((r) => r.id),
        detail: { ...plan.auditDetail, orders_walked: walked.orders, walk_complete: walked.complete },
      });
      return reply.headers(listHeaders(RESOURCE, params.range[0], result)).send(result.items);
    });

    // Static, so it wins over /appointments/:id.
    app.get('/appointments/cancellation-reasons', { preHandler: canRead }, async () => client.appointmentCancellationReasons());

    app.get('/appointments/:id', { preHandler: canRead }, async (req) => {
      const id = orderIdOf(req, noAppointment);
      const entry = await directory.readOne(id);
      if (!entry) throw noAppointment();
      await audit(app.bffDb, req, { action: 'read', resource: RESOURCE, recordIds: [entry.record.id] });
      return entry.record;
    });

    // --- Actions on an order's appointment ----------------------------------------------------

    const getOrderOrNull = async (id: string) => {
      try {
        return await client.getOrder(id);
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
        throw err;
      }
    };
    const hasActiveAppointment = (orderId: string) => async () => {
      try {
        const current = await client.getOrderAppointment(orderId);
        return ACTIVE_APPOINTMENT_STATUSES.includes(current.status);
      } catch {
        return false;
      }
    };

    /**
     * Runs a change through the service: the kept walks are dropped whatever the outcome (a timed
     * out call may still have changed the appointment), failures are mapped and audited.
     */
    const change = async (
      req: FastifyRequest,
      action: Exclude<AppointmentAction, 'availability'>,
      orderId: string,
      call: () => Promise<Appointment>,
      detail: Record<string, unknown> = {},
    ) => {
      let appointment: Appointment;
      try {
        appointment = await call();
      } catch (err) {
        directory.invalidate();
        const mapped = await mapActionError(err, action, { hasActiveAppointment: hasActiveAppointment(orderId) });
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, {
            action,
            resource: RESOURCE,
            recordIds: [orderId],
            detail: { ...detail, ...(mapped instanceof AppointmentError && { code: mapped.code }) },
            outcome: 'failed',
            statusCode: err.status,
          });
        }
        throw mapped;
      }
      directory.invalidate();
      const record = await directory.recordFor(appointment);
      await audit(app.bffDb, req, { action, resource: RESOURCE, recordIds: [record.id], detail: { ...detail, ...auditOf(appointment) } });
      return record;
    };

    app.post('/orders/:id/appointment/availability', { preHandler: canRead }, async (req) => {
      const orderId = orderIdOf(req, orderNotFound);
      const { start_date: startDate } = req.query as Record<string, unknown>;
      if (startDate !== undefined && (typeof startDate !== 'string' || startDate.length > 40)) {
        throw new BffError(400, 'start_date must be one date (YYYY-MM-DD)', { start_date: 'must be one date (YYYY-MM-DD)' });
      }
      // `{}` (or no body) means "at the order's patient address".
      const given = req.body === undefined || req.body === null ? {} : objectBody(req.body);
      const useOrderAddress = Object.keys(given).length === 0;
      const order = await getOrderOrNull(orderId);
      if (!order) throw orderNotFound();
      const address = useOrderAddress ? orderAddress(order) : given;
      let answer;
      try {
        answer = await client.appointmentAvailability(address, startDate || undefined);
      } catch (err) {
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, {
            action: 'availability',
            resource: RESOURCE,
            recordIds: [orderId],
            detail: { order_address: useOrderAddress },
            outcome: 'failed',
            statusCode: err.status,
          });
        }
        throw await mapActionError(err, 'availability', { hasActiveAppointment: async () => false });
      }
      await audit(app.bffDb, req, {
        action: 'availability',
        resource: RESOURCE,
        recordIds: [orderId],
        detail: {
          order_address: useOrderAddress,
          start_date: startDate || null,
          days: answer.slots.length,
          slots: answer.slots.reduce((n, d) => n + d.slots.length, 0),
        },
      });
      return { ...answer, address };
    });

    app.post('/orders/:id/appointment/book', { preHandler: canWrite }, async (req) => {
      const orderId = orderIdOf(req, orderNotFound);
      const body = objectBody(req.body);
      return change(req, 'book', orderId, () => client.bookAppointment(orderId, body), { async_confirmation: body.async_confirmation === true });
    });

    app.post('/orders/:id/appointment/request', { preHandler: canWrite }, async (req) => {
      const orderId = orderIdOf(req, orderNotFound);
      const body = objectBody(req.body);
      return change(req, 'request', orderId, () => client.requestAppointment(orderId, body));
    });

    app.post('/orders/:id/appointment/reschedule', { preHandler: canWrite }, async (req) => {
      const orderId = orderIdOf(req, noAppointment);
      const body = objectBody(req.body);
      // The service refuses a move it cannot make with a 422 on the order; the dashboard is promised
      // a 409 it can tell apart (it hides the button when `can_reschedule` is false, but may be stale).
      let current: Appointment;
      try {
        current = await client.getOrderAppointment(orderId);
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw noAppointment();
        throw err;
      }
      if (!current.can_reschedule) {
        throw new AppointmentError(409, `The appointment is ${current.status} and cannot be rescheduled`, 'not_reschedulable');
      }
      return change(req, 'reschedule', orderId, () => client.rescheduleAppointment(orderId, body), { from_provider: current.provider });
    });

    app.post('/orders/:id/appointment/cancel', { preHandler: canWrite }, async (req) => {
      const orderId = orderIdOf(req, noAppointment);
      const body = objectBody(req.body);
      const reason = typeof body.cancellation_reason_id === 'string' && REASON_ID.test(body.cancellation_reason_id) ? body.cancellation_reason_id : null;
      return change(req, 'cancel', orderId, () => client.cancelAppointment(orderId, body), { cancellation_reason_id: reason });
    });
  };
}
