import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Appointment, Order, PscInfo } from '../../contract';
import {
  DrawCompletedAnswer,
  ErrorBody,
  IdParams,
  isUuid,
  WALK_IN_DEFAULT_RADIUS,
  WALK_IN_WEEKDAYS,
  WalkInAvailability,
  WalkInAvailabilityQuery,
  WalkInBooking,
  WalkInCancel,
  WalkInCenters,
  WalkInCentersQuery,
  WalkInVisit,
  type WalkInCenter,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { ACTIVE_APPOINTMENT_STATUSES } from './appointmentDirectory';
import { mapActionError, orderNotFound, type AppointmentAction } from './appointmentErrors';

const RESOURCE = 'walk-in';
const TAGS = ['walk-in'];
const WALK_IN = 'walk_in_test';
const ON_SITE = 'on_site_collection';
/** Cancellation reason ids are short slugs from the service's list: safe in the audit trail. */
const REASON_ID = /^[A-Za-z0-9_.-]{1,100}$/;

const hhmm = (v: unknown) => (typeof v === 'string' && /^\d\d:\d\d$/.test(v) ? v : null);

/** The service's center, as the dashboard lists it: hours typed per weekday, in the center's zone. */
function centerOf(c: PscInfo['patient_service_centers'][number]): WalkInCenter {
  const hours = (c.metadata.hours ?? {}) as Record<string, unknown>;
  const day = (d: string) => {
    const h = hours[d] as { open?: unknown; close?: unknown } | null | undefined;
    const open = hhmm(h?.open);
    const close = hhmm(h?.close);
    return open && close ? { open, close } : null;
  };
  return {
    site_code: c.site_code,
    name: c.metadata.name,
    address: { first_line: c.metadata.first_line, city: c.metadata.city, state: c.metadata.state, zip_code: c.metadata.zip_code },
    phone_number: c.metadata.phone_number ?? null,
    distance_miles: c.distance,
    iana_timezone: typeof hours.iana_timezone === 'string' ? hours.iana_timezone : null,
    hours: Object.fromEntries(WALK_IN_WEEKDAYS.map((d) => [d, day(d)])),
    capabilities: c.capabilities,
  };
}

/** What the audit trail keeps of a visit: ids, the center's code and the status; never the address or notes. */
const auditOf = (a: Appointment) => ({ appointment_id: a.id, site_code: (a.event_data?.site_code as string | undefined) ?? null, status: a.status });

export function walkInResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('appointments:read', 'see walk-in visits');
    const canWrite = requirePermission('appointments:write', 'book, reschedule or cancel walk-in visits');
    const canCollect = requirePermission('orders:collect', 'mark an on-site draw completed');

    /** The order (404 when unknown or malformed, without a call); its patient goes into the audit note. */
    const orderOf = async (req: FastifyRequest<{ Params: { id: string } }>): Promise<Order> => {
      const { id } = req.params;
      if (!isUuid(id)) throw orderNotFound();
      req.auditNote.recordIds = [id.toLowerCase()];
      let order: Order;
      try {
        order = await client.getOrder(id.toLowerCase());
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw orderNotFound();
        throw err;
      }
      req.auditNote.patientIds = [order.user_id];
      return order;
    };
    const walkInOrder = async (req: FastifyRequest<{ Params: { id: string } }>) => {
      const order = await orderOf(req);
      if (order.lab_test.method !== WALK_IN) {
        throw new BffError(409, `This is a ${order.lab_test.method} order; walk-in visits are for walk-in orders`, undefined, 'not_walk_in');
      }
      return order;
    };
    const hasActiveVisit = (orderId: string) => async () => {
      try {
        return ACTIVE_APPOINTMENT_STATUSES.includes((await client.getPscAppointment(orderId)).status);
      } catch {
        return false;
      }
    };
    /** A change through the service, its failure mapped as the at-home actions' are. */
    const change = async (req: FastifyRequest<{ Params: { id: string } }>, action: Exclude<AppointmentAction, 'availability' | 'request'>, call: (orderId: string) => Promise<Appointment>) => {
      const order = await walkInOrder(req);
      try {
        const visit = await call(order.id);
        req.auditNote.detail = { ...req.auditNote.detail, ...auditOf(visit) };
        return { visit };
      } catch (err) {
        throw await mapActionError(err, action, { hasActiveAppointment: hasActiveVisit(order.id) });
      }
    };
    const visitSchema = (operationId: string) => ({ operationId, tags: TAGS, params: IdParams, response: { 200: WalkInVisit, '4XX': ErrorBody, '5XX': ErrorBody } });
    // Declared per route; the one audit hook records it (with the order and patient the handler notes).
    const audited = (action: 'read' | 'availability' | 'book' | 'reschedule' | 'cancel') => ({
      audit: { resource: RESOURCE, action, records: () => [] as string[], patients: () => [] as string[] },
    });

    app.get(
      '/orders/:id/walk-in/centers',
      {
        preValidation: canRead,
        schema: { operationId: 'walkInCenters', tags: TAGS, params: IdParams, querystring: WalkInCentersQuery, response: { 200: WalkInCenters, '4XX': ErrorBody } },
        config: audited('read'),
      },
      async (req) => {
        const order = await walkInOrder(req);
        const radius = req.query.radius ?? WALK_IN_DEFAULT_RADIUS;
        const info = await client.orderPscInfo(order.id, radius);
        req.auditNote.detail = { radius, centers: info.patient_service_centers.length };
        return { lab: info.slug, radius, centers: info.patient_service_centers.map(centerOf) };
      },
    );

    app.get(
      '/orders/:id/walk-in/availability',
      {
        preValidation: canRead,
        schema: { operationId: 'walkInAvailability', tags: TAGS, params: IdParams, querystring: WalkInAvailabilityQuery, response: { 200: WalkInAvailability, '4XX': ErrorBody } },
        config: audited('availability'),
      },
      async (req) => {
        const order = await walkInOrder(req);
        const lab = order.lab_test.lab?.slug ?? (await client.orderPscInfo(order.id)).slug;
        const answer = await client.pscAvailability(lab, [req.query.site_code], req.query.start_date);
        const days = answer.slots.filter((d) => !d.location || d.location.code === req.query.site_code);
        req.auditNote.detail = { site_code: req.query.site_code, days: days.length, slots: days.reduce((n, d) => n + d.slots.length, 0) };
        return {
          site_code: req.query.site_code,
          iana_timezone: days[0]?.location?.iana_timezone ?? answer.timezone ?? null,
          days: days.map((d) => ({ date: d.date, slots: d.slots.map((s) => ({ booking_key: s.booking_key, start: s.start, end: s.end, num_appointments_available: s.num_appointments_available })) })),
        };
      },
    );

    app.get('/orders/:id/walk-in/visit', { preValidation: canRead, schema: visitSchema('walkInVisit'), config: audited('read') }, async (req) => {
      const order = await walkInOrder(req);
      try {
        const visit = await client.getPscAppointment(order.id);
        req.auditNote.detail = auditOf(visit);
        return { visit };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 404) return { visit: null };
        throw err;
      }
    });

    app.post('/orders/:id/walk-in/book', { preValidation: canWrite, schema: { ...visitSchema('bookWalkIn'), body: WalkInBooking }, config: audited('book') }, (req) =>
      change(req, 'book', (orderId) => client.bookPscAppointment(orderId, req.body.booking_key)),
    );
    app.post('/orders/:id/walk-in/reschedule', { preValidation: canWrite, schema: { ...visitSchema('rescheduleWalkIn'), body: WalkInBooking }, config: audited('reschedule') }, (req) =>
      change(req, 'reschedule', (orderId) => client.reschedulePscAppointment(orderId, req.body.booking_key)),
    );
    app.post('/orders/:id/walk-in/cancel', { preValidation: canWrite, schema: { ...visitSchema('cancelWalkIn'), body: WalkInCancel }, config: audited('cancel') }, (req) => {
      const { cancellation_reason_id: reason, note } = req.body;
      req.auditNote.detail = { cancellation_reason_id: REASON_ID.test(reason) ? reason : null };
      return change(req, 'cancel', (orderId) => client.cancelPscAppointment(orderId, reason, note));
    });

    app.post(
      '/orders/:id/draw-completed',
      {
        preValidation: canCollect,
        schema: { operationId: 'markDrawCompleted', tags: ['orders'], params: IdParams, response: { 200: DrawCompletedAnswer, '4XX': ErrorBody, '5XX': ErrorBody } },
        config: { audit: { resource: 'orders', action: 'update' as const, records: () => [] as string[], patients: () => [] as string[] } },
      },
      async (req) => {
        const order = await orderOf(req);
        if (order.lab_test.method !== ON_SITE) {
          throw new BffError(409, `This is a ${order.lab_test.method} order; only on-site collection orders have their draw marked here`, undefined, 'not_on_site');
        }
        req.auditNote.detail = { change: 'draw_completed', from: order.low_level_status ?? null };
        const answer = await client.markDrawCompleted(order.id);
        return { order: answer.order, message: answer.message };
      },
    );
  };
}
