import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Appointment,
  AppointmentOrderParams,
  AvailabilityQuery,
  AvailabilityResponse,
  BookBody,
  CancelBody,
  CancellationReasons,
  RequestBody,
  RescheduleBody,
  ErrorBody,
  errorResponses,
  USAddress,
} from '../../contract';
import { availability } from '../domain/appointments/availability';
import { bookAppointment } from '../domain/appointments/book';
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../domain/appointments/bookingKey';
import { CANCELLATION_REASONS, cancelOrderAppointment } from '../domain/appointments/cancel';
import { getOrderAppointment } from '../domain/appointments/present';
import { requestAppointment } from '../domain/appointments/request';
import { rescheduleAppointment } from '../domain/appointments/reschedule';
import { persistentSecret } from '../domain/settings';
import { assertBehaviourEnv } from '../providers';

const tags = ['appointments'];
const security = [{ apiKey: [] }];

/** At-home phlebotomy appointments (issue 4). */
const routes: FastifyPluginAsyncZod = async (app) => {
  assertBehaviourEnv();
  const codec = new BookingKeyCodec(await persistentSecret(app.db, BOOKING_KEY_SECRET));

  app.post('/v3/order/phlebotomy/appointment/availability', {
    schema: {
      tags,
      security,
      operationId: 'getAppointmentAvailability', summary: 'Slots of the next 14 days at an address',
      description:
        "The body is a bare USAddress. Answers exactly 14 days from `start_date` (default today in the address's time zone), in order, each with the slots of every provider serving the zip, merged and sorted by start (UTC). The zone comes from the zip (IANA name, in `timezone`); a state that disagrees with the zip, or a zip outside the US states' areas, is 422. Slots already started and slots with no place left are not offered. `booking_key` is opaque and signed; it names the slot, the provider and the address, and expires at `expires_at` (15 minutes, or the slot's start if sooner). An unserved zip gets 14 empty days.",
      querystring: AvailabilityQuery,
      body: USAddress,
      response: { 200: AvailabilityResponse, ...errorResponses },
    },
    handler: (req) => availability(app.db, codec, req.teamId, req.body, req.query.start_date),
  });

  app.post('/v3/order/:order_id/phlebotomy/appointment/book', {
    schema: {
      tags,
      security,
      operationId: 'bookAppointment', summary: 'Book a slot for an at-home phlebotomy order',
      description: `The order must be the team's (else 404), an at_home_phlebotomy order that is not completed, cancelled or failed, without an active appointment (else 409). \`booking_key\`: from availability for the order's patient address; a key names a slot and is not used up: any order of the team at that address may book with it until its expires_at while the slot has a place. Malformed, tampered, another team's or another address's key is 422 at body.booking_key, an expired one (or a slot already started) 410, a full slot 409.

1. \`async_confirmation\` false (default): waits for the provider; when it refuses (or gives no answer within 30 s) the answer is 500 and nothing stays reserved.
2. \`async_confirmation\` true: waits up to \`sync_confirmation_timeout_millisecond\` (1000-10000, default 2500), then answers the appointment, confirmed or pending; a pending booking carries on in the background (a refused attempt is submitted again).
3. At \`async_confirmation_timeout_millisecond\` (60000-172800000, default 15 minutes) a still pending attempt and its appointment are cancelled and the place released.

Confirmed: the order moves to appointment_scheduled; pending: appointment_pending. \`labtest.appointment.created\`/\`.updated\` webhook events are recorded. The patient address's access_notes are forwarded to the provider (see event_data.provider_request).`,
      params: AppointmentOrderParams,
      body: BookBody,
      response: {
        200: Appointment,
        409: ErrorBody.describe('The slot is full, or the order already has an active appointment'),
        410: ErrorBody.describe('The booking key expired'),
        500: ErrorBody.describe('Synchronous booking could not be confirmed; nothing was reserved'),
        ...errorResponses,
      },
    },
    handler: (req) => bookAppointment(app.db, codec, req.teamId, req.params.order_id, req.body),
  });

  app.post('/v3/order/:order_id/phlebotomy/appointment/request', {
    schema: {
      tags,
      security,
      operationId: 'requestAppointment', summary: 'Request an appointment without choosing a slot',
      description:
        "The provider (provider_1..provider_4; it must serve the address's zip, else 422 at body.provider) arranges a time with the patient. The appointment is pending with start_at and end_at null until it is given a slot (reschedule) or cancelled; no slot place is taken. The address is checked like availability's (state against zip, 422). access_notes: the body address's, else the order's patient address's; forwarded to the provider. Same order rules as book (404, 422, 409 with an active appointment). The order moves to appointment_pending; `labtest.appointment.created` is recorded.",
      params: AppointmentOrderParams,
      body: RequestBody,
      response: { 200: Appointment, 409: ErrorBody.describe('The order already has an active appointment'), ...errorResponses },
    },
    handler: (req) => requestAppointment(app.db, req.teamId, req.params.order_id, req.body),
  });

  app.patch('/v3/order/:order_id/phlebotomy/appointment/reschedule', {
    schema: {
      tags,
      security,
      operationId: 'rescheduleAppointment', summary: "Move the order's appointment to another slot",
      description:
        "For a confirmed appointment, or a requested one (pending, no slot). `booking_key` from availability for the appointment's address (key rules as book: usable by any order at that address until it expires while the slot has a place; 422 invalid or another address, 410 expired, 409 slot full). Synchronous: the provider is asked (access_notes forwarded again) and the answer awaited; confirmed → the appointment (same id) takes the new slot and provider, the old place is released, the order is appointment_scheduled and `labtest.appointment.updated` is recorded; refused → 500 and the appointment keeps its previous slot. `appointment_notes` replaces the notes when given.",
      params: AppointmentOrderParams,
      body: RescheduleBody,
      response: {
        200: Appointment,
        409: ErrorBody.describe('The slot is full, or another reschedule of the appointment is in progress'),
        410: ErrorBody.describe('The booking key expired'),
        500: ErrorBody.describe('The provider did not confirm the new slot; nothing changed'),
        ...errorResponses,
      },
    },
    handler: (req) => rescheduleAppointment(app.db, codec, req.teamId, req.params.order_id, req.body),
  });

  app.get('/v3/order/:order_id/phlebotomy/appointment', {
    schema: {
      tags,
      security,
      operationId: 'getAppointment', summary: "The order's appointment",
      description: "The order's latest appointment, whatever its status; 404 when the order (the team's) has none. status and event_status may gain values.",
      params: AppointmentOrderParams,
      response: { 200: Appointment, ...errorResponses },
    },
    handler: (req) => getOrderAppointment(app.db, req.teamId, req.params.order_id),
  });

  app.patch('/v3/order/:order_id/phlebotomy/appointment/cancel', {
    schema: {
      tags,
      security,
      operationId: 'cancelAppointment', summary: "Cancel the order's appointment",
      description:
        'Cancels the active (reserved, pending or confirmed) appointment: its place is released, the order moves to appointment_cancelled and a `labtest.appointment.updated` event is recorded. An unknown `cancellation_reason_id` is 422; no appointment is 404; one already cancelled is 422 at path.order_id.',
      params: AppointmentOrderParams,
      body: CancelBody,
      response: { 200: Appointment, ...errorResponses },
    },
    handler: (req) => cancelOrderAppointment(app.db, req.teamId, req.params.order_id, req.body),
  });

  app.get('/v3/order/phlebotomy/appointment/cancellation-reasons', {
    schema: { tags, security, operationId: 'listAppointmentCancellationReasons', summary: 'Reasons for cancelling an appointment', response: { 200: CancellationReasons, ...errorResponses } },
    handler: async () => CANCELLATION_REASONS,
  });
};

export default routes;
