import { z } from 'zod';
import { CreatedWebhookEndpoint, CreateWebhookEndpointBody, WEBHOOK_URL_MAX, WebhookDelivery, WebhookEndpoint } from '../../contract';
import { filter, listQuery, RecordId } from './list';

export {
  ALL_EVENT_TYPES,
  EVENT_TYPE_PATTERN,
  KNOWN_WEBHOOK_EVENT_TYPES as KNOWN_EVENT_TYPES,
  WEBHOOK_DESCRIPTION_MAX as DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES_MAX as EVENT_TYPES_MAX,
  WEBHOOK_URL_MAX as URL_MAX,
} from '../../contract';

/** The service's endpoint plus `disabled` (= `disabled_at` is set), the flag an update toggles. */
export const WebhookEndpointRecord = WebhookEndpoint.extend({ disabled: z.boolean() }).meta({ id: 'WebhookEndpointRecord' });
export type WebhookEndpointRecord = z.infer<typeof WebhookEndpointRecord>;
/** The create answer: the endpoint and its signing secret, shown this once. */
export const CreatedWebhookEndpointRecord = CreatedWebhookEndpoint.extend({ disabled: z.boolean() }).meta({ id: 'CreatedWebhookEndpointRecord' });
export type CreatedWebhookEndpointRecord = z.infer<typeof CreatedWebhookEndpointRecord>;
export const WebhookDeliveryRecord = WebhookDelivery.meta({ id: 'WebhookDeliveryRecord' });
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliveryRecord>;
export type DeliveryAttempt = WebhookDeliveryRecord['attempts'][number];

export const WebhookEndpointsList = listQuery({
  filter: { disabled: filter.boolean() },
  // `id` and `created_at` are the service's order (oldest first); `url` alphabetical.
  sort: { id: ['ASC', 'DESC'], created_at: ['ASC', 'DESC'], url: ['ASC', 'DESC'] },
  defaultSort: { field: 'created_at', order: 'ASC' },
});

/** Deliveries are listed per endpoint, newest first only. */
export const WebhookDeliveriesList = listQuery({
  filter: { endpoint_id: filter.uuid(), status: filter.string(40) },
  sort: { id: ['ASC', 'DESC'], created_at: ['DESC'] },
  defaultSort: { field: 'created_at', order: 'DESC' },
});

export const CreateWebhookEndpoint = CreateWebhookEndpointBody;
export type CreateWebhookEndpoint = z.input<typeof CreateWebhookEndpointBody>;
/**
 * react-admin sends the whole record back: the editable fields are read, anything else is ignored.
 * Only the fields that changed go on to the service, which checks them (an unchanged URL is not
 * checked again), so their types are all this contract asks for.
 */
export const UpdateWebhookEndpoint = z.object({
  url: z.string().max(WEBHOOK_URL_MAX).optional(),
  event_types: z.array(z.string()).nullable().optional(),
  description: z.string().nullable().optional(),
  disabled: z.boolean({ error: 'must be true or false' }).nullable().optional(),
});
export type UpdateWebhookEndpoint = z.input<typeof UpdateWebhookEndpoint>;
export const DeliveryParams = z.object({ id: RecordId, deliveryId: RecordId });
