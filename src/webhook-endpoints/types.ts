/**
 * Webhook endpoint shapes as the BFF serves them (docs/bff-api.md, "Webhook endpoints"): the
 * service's own (server/contract/webhooks.ts, types only) and the limits the form checks. The
 * limits mirror the contract, which the dashboard may only import types from: keep them in step.
 */
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '../../server/contract';

/** The service's endpoint plus the BFF's `disabled` (`disabled_at` is set), the flag an update toggles. */
export type WebhookEndpointRecord = WebhookEndpoint & { disabled?: boolean };
/** The create answer: the endpoint plus its secret, which is shown this once. */
export type CreatedWebhookEndpointRecord = CreatedWebhookEndpoint & { disabled?: boolean };
export type WebhookDeliveryRecord = WebhookDelivery;
export type DeliveryAttempt = WebhookDelivery['attempts'][number];

/** `ALL_EVENT_TYPES`: every type, including future ones. */
export const ALL_EVENT_TYPES = '*';
/** `KNOWN_WEBHOOK_EVENT_TYPES`: offered as choices; any name of the pattern is accepted too. */
export const KNOWN_EVENT_TYPES = [
  'labtest.order.created',
  'labtest.order.updated',
  'labtest.appointment.created',
  'labtest.appointment.updated',
  'labtest.result.critical',
  'lab_report.parsing_job.created',
  'lab_report.parsing_job.updated',
] as const;
/** `EVENT_TYPE_PATTERN`: `*`, an event type, or a family like `labtest.order.*`. */
export const EVENT_TYPE_PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/;
export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;
export const EVENT_TYPES_MAX = 50;
