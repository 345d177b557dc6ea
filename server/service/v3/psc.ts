import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Appointment,
  AppointmentOrderParams,
  AreaInfo,
  AreaInfoQuery,
  CancellationReasons,
  ErrorBody,
  errorResponses,
  OrderPscInfoQuery,
  PostOrderResponse,
  PscAvailability,
  PscAvailabilityQuery,
  PscBookingBody,
  PscCancelBody,
  PscInfo,
  PscInfoQuery,
} from '../../contract';
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../domain/appointments/bookingKey';
import { CANCELLATION_REASONS } from '../domain/appointments/cancel';
import { markDrawCompleted } from '../domain/orders/drawCompleted';
import { findOrderRow } from '../domain/orders/present';
import { pscAvailability } from '../domain/psc/availability';
import { accountLabSlug, assertAccountOfLab } from '../domain/psc/accountLab';
import { labOfOrder, orderZip } from '../domain/psc/orderCenter';
import { areaInfo, pscInfo } from '../domain/psc/search';
import { bookVisit, cancelVisit, getVisit, rescheduleVisit } from '../domain/psc/visits';
import { persistentSecret } from '../domain/settings';

const tags = ['walk-in'];
const security = [{ apiKey: [] }];
const bookingErrors = {
  409: ErrorBody.describe('The slot is full, or the order already has an active appointment'),
  410: ErrorBody.describe('The booking key expired'),
};

/** Walk-in visits at patient service centers and on-site draws (issue 15; wire-facts §11.2, §11.3). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const codec = new BookingKeyCodec(await persistentSecret(app.db, BOOKING_KEY_SECRET));

  app.get('/v3/order/area/info', {
    schema: {
      tags,
      security,
      operationId: 'getAreaInfo',
      summary: 'Phlebotomy coverage and patient service centers near a ZIP code',
      description:
        'Per lab (all, or `lab`/`labs`): how many of its centers lie within `radius` miles (default 25) of the ZIP code, their capabilities and bill types. An unknown ZIP area or lab is 422. `lab_account_id` (one of the team\'s accounts, else 404) lists only that account\'s lab; `lab`/`labs` naming other labs alongside it is 422.',
      querystring: AreaInfoQuery,
      response: { 200: AreaInfo, ...errorResponses },
    },
    handler: async (req) => {
      const { zip_code, radius, lab, labs, lab_account_id } = req.query;
      const accountSlug = lab_account_id ? await accountLabSlug(app.db, req.teamId, lab_account_id) : undefined;
      return areaInfo(zip_code, radius, [...(lab ? [lab] : []), ...(labs ?? [])], accountSlug);
    },
  });

  app.get('/v3/order/psc/info', {
    schema: {
      tags,
      security,
      operationId: 'getPscInfo',
      summary: "A lab's patient service centers near a ZIP code",
      description: 'Nearest first; `distance` in miles (great circle from the ZIP code\'s centre); `metadata.hours` per weekday in the center\'s own zone (`iana_timezone`). `capabilities` keeps only centers having all of them. `lab_account_id` (one of the team\'s accounts, else 404) must be an account of lab `lab_id` (else 422).',
      querystring: PscInfoQuery,
      response: { 200: PscInfo, ...errorResponses },
    },
    handler: async (req) => {
      const { lab_id, zip_code, radius, capabilities, lab_account_id } = req.query;
      if (lab_account_id) assertAccountOfLab(lab_id, await accountLabSlug(app.db, req.teamId, lab_account_id));
      return pscInfo(lab_id, zip_code, radius, capabilities);
    },
  });

  app.get('/v3/order/:order_id/psc/info', {
    schema: {
      tags,
      security,
      operationId: 'getOrderPscInfo',
      summary: "The order's lab's centers near the patient",
      description: "As /v3/order/psc/info, for the order's lab and its patient's ZIP code. Another team's order is 404.",
      params: AppointmentOrderParams,
      querystring: OrderPscInfoQuery,
      response: { 200: PscInfo, ...errorResponses },
    },
    handler: async (req) => {
      const order = await findOrderRow(app.db, req.teamId, req.params.order_id);
      const lab = await labOfOrder(app.db, order);
      return pscInfo(lab.id, orderZip(order), req.query.radius, req.query.capabilities);
    },
  });

  app.post('/v3/order/psc/appointment/availability', {
    schema: {
      tags,
      security,
      operationId: 'getPscAppointmentAvailability',
      summary: "Walk-in slots of a lab's centers",
      description:
        "No body. The centers are `site_codes` (the lab's), else those within `radius` of `zip_code`. Answers 7 days from `start_date` per center, each day carrying the center as `location`; slots every 15 minutes within its opening hours, in its zone (`timezone` when all centers share one). A slot has one place per draw station; slots started or full are left out. `booking_key` expires after 15 minutes.",
      querystring: PscAvailabilityQuery,
      response: { 200: PscAvailability, ...errorResponses },
    },
    handler: (req) => pscAvailability(app.db, codec, req.teamId, req.query),
  });

  app.post('/v3/order/:order_id/psc/appointment/book', {
    schema: {
      tags,
      security,
      operationId: 'bookPscAppointment',
      summary: 'Book a walk-in visit for a walk_in_test order',
      description:
        'Only walk_in_test orders not yet drawn (else 422 at path.order_id); the key must name a center of the order\'s lab (422 at body.booking_key). Confirmed at once: the order moves to appointment_scheduled and `labtest.appointment.created` is recorded. 409 when the slot is full or the order has an active appointment, 410 when the key expired.',
      params: AppointmentOrderParams,
      body: PscBookingBody,
      response: { 200: Appointment, ...bookingErrors, ...errorResponses },
    },
    handler: (req) => bookVisit(app.db, codec, req.teamId, req.params.order_id, req.body),
  });

  app.patch('/v3/order/:order_id/psc/appointment/reschedule', {
    schema: {
      tags,
      security,
      operationId: 'reschedulePscAppointment',
      summary: 'Move the walk-in visit to another slot',
      description: 'For a confirmed visit; the key may name another center of the same lab. The old place is released, `labtest.appointment.updated` recorded.',
      params: AppointmentOrderParams,
      body: PscBookingBody,
      response: { 200: Appointment, ...bookingErrors, ...errorResponses },
    },
    handler: (req) => rescheduleVisit(app.db, codec, req.teamId, req.params.order_id, req.body),
  });

  app.patch('/v3/order/:order_id/psc/appointment/cancel', {
    schema: {
      tags,
      security,
      operationId: 'cancelPscAppointment',
      summary: 'Cancel the walk-in visit',
      description: '`cancellationReasonId` and `note` (the SDK\'s spelling) or `cancellation_reason_id` and `notes`. The place is released, the order moves to appointment_cancelled, `labtest.appointment.updated` is recorded.',
      params: AppointmentOrderParams,
      body: PscCancelBody,
      response: { 200: Appointment, ...errorResponses },
    },
    handler: (req) => cancelVisit(app.db, req.teamId, req.params.order_id, req.body),
  });

  app.get('/v3/order/:order_id/psc/appointment', {
    schema: {
      tags,
      security,
      operationId: 'getPscAppointment',
      summary: "The order's walk-in visit",
      description: "The order's latest walk-in visit, whatever its status; 404 when it has none.",
      params: AppointmentOrderParams,
      response: { 200: Appointment, ...errorResponses },
    },
    handler: (req) => getVisit(app.db, req.teamId, req.params.order_id),
  });

  app.get('/v3/order/psc/appointment/cancellation-reasons', {
    schema: { tags, security, operationId: 'listPscAppointmentCancellationReasons', summary: 'Reasons for cancelling a walk-in visit', response: { 200: CancellationReasons, ...errorResponses } },
    handler: async () => CANCELLATION_REASONS,
  });

  app.patch('/v3/order/:order_id/draw_completed', {
    schema: {
      tags,
      security,
      operationId: 'markDrawCompleted',
      summary: "An on-site collection order's sample was drawn",
      description:
        'From received.requisition_created (or requisition_bypassed) to sample_with_lab.on_site_collection.draw_completed; the lifecycle resumes. Repeating it on an order already at draw_completed answers the order unchanged. Other collection methods and states are 422 at path.order_id.',
      params: AppointmentOrderParams,
      response: { 200: PostOrderResponse, ...errorResponses },
    },
    handler: (req) => markDrawCompleted(app.db, req.teamId, req.params.order_id),
  });
};

export default routes;
