import type { AuditAction } from '../api/audit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Appointment, Order } from '../../contract';
import {
  AppointmentRecord,
  AppointmentsList,
  AvailabilityAnswer,
  AvailabilityBody,
  AvailabilityQuery,
  BookAppointment,
  CancelAppointment,
  CancellationReason,
  ErrorBody,
  IdParams,
  isUuid,
  MAX_GET_MANY,
  RequestAppointment,
  RescheduleAppointment,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { ACTIVE_APPOINTMENT_STATUSES, AppointmentDirectory, type DirectoryEntry, type DirectoryOptions } from './appointmentDirectory';
import { AppointmentError, mapActionError, noAppointment, orderNotFound, type AppointmentAction } from './appointmentErrors';
import { planAppointmentsList } from './appointmentQuery';
import { sliceRange } from './sliceRange';

const RESOURCE = 'appointments';
const TAGS = ['appointments'];
/** A cancellation reason id is a short slug from the service's list: safe to keep in the audit trail. */
const REASON_ID = /^[A-Za-z0-9_.-]{1,100}$/;

/** The order id of an action's path; a malformed one is answered like an unknown order, without a call. */
function orderIdOf(req: FastifyRequest<{ Params: { id: string } }>, notFound: () => BffError): string {
  const { id } = req.params;
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/**
 * The order's patient address in the shape availability wants. Orders carry `zip`; the USAddress
 * names it `zip_code`. `access_notes` are kept: the dashboard shows them beside the slots.
 */
function orderAddress(order: Order) {
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
  return address as { first_line: string; second_line: string | null; city: string; state: string; zip_code: string; access_notes: string | null };
}

type AddressGiven = z.output<typeof RequestAppointment>['address'];
/** The availability body: an address, or `{}` / nothing for the order's patient address. */
const isAddress = (body: z.output<typeof AvailabilityBody>): body is AddressGiven => body !== undefined && 'first_line' in body;

/** What the audit trail keeps of an appointment: ids and the provider, never address, notes or key. */
const auditOf = (a: Appointment) => ({ appointment_id: a.id, provider: a.provider, status: a.status });

const record = (action: AuditAction) => ({ audit: { resource: RESOURCE, action } });
const actionSchema = <B extends z.ZodType>(operationId: string, body: B) => ({
  operationId,
  tags: TAGS,
  params: IdParams,
  body,
  response: { 200: AppointmentRecord, '4XX': ErrorBody, '5XX': ErrorBody },
});

export function appointmentsResource(client: ServiceClient, opts: DirectoryOptions = {}): FastifyPluginAsyncZod {
  return async (app) => {
    const directory = new AppointmentDirectory(client, opts);
    const canRead = requirePermission('appointments:read', 'see appointments');
    const canWrite = requirePermission('appointments:write', 'book, reschedule or cancel appointments');

    // --- The resource -----------------------------------------------------------------------

    app.get(
      '/appointments',
      {
        preValidation: canRead,
        schema: { operationId: 'listAppointments', tags: TAGS, querystring: AppointmentsList, response: { 200: z.array(AppointmentRecord), '4XX': ErrorBody } },
        config: record('list'),
      },
      async (req, reply) => {
      const params = req.query;
      if (params.filter.id) {
        req.auditNote.action = 'read';
        return sendAll(reply, RESOURCE, (await directory.readMany(params.filter.id.slice(0, MAX_GET_MANY))).map((e) => e.record));
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
      req.auditNote.detail = { ...plan.auditDetail, orders_walked: walked.orders, walk_complete: walked.complete };
      return sendList(reply, RESOURCE, params.range[0], result);
      },
    );

    // Static, so it wins over /appointments/:id.
    app.get(
      '/appointments/cancellation-reasons',
      {
        preValidation: canRead,
        schema: { operationId: 'listCancellationReasons', tags: TAGS, response: { 200: z.array(CancellationReason), '4XX': ErrorBody } },
      },
      async () => client.appointmentCancellationReasons(),
    );

    app.get(
      '/appointments/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getAppointment', tags: TAGS, params: IdParams, response: { 200: AppointmentRecord, '4XX': ErrorBody } },
        config: record('read'),
      },
      async (req) => {
        const entry = await directory.readOne(orderIdOf(req, noAppointment));
        if (!entry) throw noAppointment();
        return entry.record;
      },
    );

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
      req: FastifyRequest<{ Params: { id: string } }>,
      action: Exclude<AppointmentAction, 'availability'>,
      orderId: string,
      call: () => Promise<Appointment>,
      detail: Record<string, unknown> = {},
    ) => {
      req.auditNote.detail = detail;
      let appointment: Appointment;
      try {
        appointment = await call();
      } catch (err) {
        directory.invalidate();
        const mapped = await mapActionError(err, action, { hasActiveAppointment: hasActiveAppointment(orderId) });
        if (mapped instanceof AppointmentError) req.auditNote.detail = { ...detail, code: mapped.code };
        throw mapped;
      }
      directory.invalidate();
      req.auditNote.detail = { ...detail, ...auditOf(appointment) };
      return directory.recordFor(appointment);
    };

    app.post(
      '/orders/:id/appointment/availability',
      {
        preValidation: canRead,
        schema: {
          operationId: 'getAppointmentAvailability',
          tags: TAGS,
          params: IdParams,
          querystring: AvailabilityQuery,
          body: AvailabilityBody,
          response: { 200: AvailabilityAnswer, '4XX': ErrorBody },
        },
        config: { audit: { resource: RESOURCE, action: 'availability', records: () => [], patients: () => [] } },
      },
      async (req) => {
        const orderId = orderIdOf(req, orderNotFound);
        const startDate = req.query.start_date;
        // `{}` (or no body) means "at the order's patient address".
        const given = isAddress(req.body) ? req.body : null;
        req.auditNote.recordIds = [orderId];
        req.auditNote.detail = { order_address: given === null, start_date: startDate ?? null };
        const order = await getOrderOrNull(orderId);
        if (!order) throw orderNotFound();
        req.auditNote.patientIds = [order.user_id];
        const address = given ?? orderAddress(order);
        let answer;
        try {
          answer = await client.appointmentAvailability(address, startDate);
        } catch (err) {
          throw await mapActionError(err, 'availability', { hasActiveAppointment: async () => false });
        }
        req.auditNote.detail.days = answer.slots.length;
        req.auditNote.detail.slots = answer.slots.reduce((n, d) => n + d.slots.length, 0);
        return { ...answer, address };
      },
    );

    app.post(
      '/orders/:id/appointment/book',
      { preValidation: canWrite, schema: actionSchema('bookAppointment', BookAppointment), config: record('book') },
      async (req) => {
        const orderId = orderIdOf(req, orderNotFound);
        const body = req.body;
        return change(req, 'book', orderId, () => client.bookAppointment(orderId, body), { async_confirmation: body.async_confirmation === true });
      },
    );

    app.post(
      '/orders/:id/appointment/request',
      { preValidation: canWrite, schema: actionSchema('requestAppointment', RequestAppointment), config: record('request') },
      async (req) => {
        const orderId = orderIdOf(req, orderNotFound);
        const body = req.body;
        return change(req, 'request', orderId, () => client.requestAppointment(orderId, body));
      },
    );

    app.post(
      '/orders/:id/appointment/reschedule',
      { preValidation: canWrite, schema: actionSchema('rescheduleAppointment', RescheduleAppointment), config: record('reschedule') },
      async (req) => {
      const orderId = orderIdOf(req, noAppointment);
      const body = req.body;
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
      },
    );

    app.post(
      '/orders/:id/appointment/cancel',
      { preValidation: canWrite, schema: actionSchema('cancelAppointment', CancelAppointment), config: record('cancel') },
      async (req) => {
        const orderId = orderIdOf(req, noAppointment);
        const body = req.body;
        const reason = REASON_ID.test(body.cancellation_reason_id) ? body.cancellation_reason_id : null;
        return change(req, 'cancel', orderId, () => client.cancelAppointment(orderId, body), { cancellation_reason_id: reason });
      },
    );
  };
}
