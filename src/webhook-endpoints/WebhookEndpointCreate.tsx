/**
 * Adding a webhook endpoint: its URL, the event types it wants (none = all), a description. The
 * answer carries the signing secret, shown once in a dialog; closing it opens the endpoint.
 * A refused URL (e.g. a private address) shows under the URL field.
 */
import { useState } from 'react';
import { Create, HttpError, SimpleForm, TextInput, useNotify, useRedirect } from 'react-admin';
import { CountedTextInput } from '../components/CountedTextInput';
import { EventTypesInput } from './EventTypesInput';
import { SecretDialog } from './SecretDialog';
import { DESCRIPTION_MAX, type CreatedWebhookEndpointRecord } from './types';
import { urlProblem } from './urlCheck';

interface EndpointFormValues {
  url?: string;
  event_types?: string[] | null;
  description?: string | null;
}

/** The body the BFF expects: no empty list (that would mean "nothing"; left out means every type). */
export function toCreateBody(values: EndpointFormValues) {
  const description = values.description?.trim();
  return {
    url: (values.url ?? '').trim(),
    ...(values.event_types?.length ? { event_types: values.event_types } : {}),
    ...(description ? { description } : {}),
  };
}

const FORM_FIELDS = ['url', 'event_types', 'description'];

/**
 * Field errors show under their inputs by themselves; anything else (e.g. `body`: the team already
 * has 20 endpoints) has no input to show under, so it is said in a notification.
 */
export function errorWithoutField(error: unknown): string | null {
  const errors = error instanceof HttpError ? (error.body as { errors?: Record<string, string> } | undefined)?.errors : undefined;
  if (errors && Object.keys(errors).length && Object.keys(errors).every((k) => FORM_FIELDS.includes(k))) return null;
  const message = error instanceof Error && error.message ? error.message : 'The endpoint could not be added';
  const other = errors && Object.entries(errors).find(([k]) => !FORM_FIELDS.includes(k))?.[1];
  return other && !message.includes(other) ? `${message}: ${other}` : message;
}

export const WebhookEndpointCreate = () => {
  const redirect = useRedirect();
  const notify = useNotify();
  const [created, setCreated] = useState<CreatedWebhookEndpointRecord | null>(null);
  return (
    <>
      <Create
        title="Add a webhook endpoint"
        mutationMode="pessimistic"
        transform={(values: EndpointFormValues) => toCreateBody(values)}
        mutationOptions={{
          onSuccess: (data: CreatedWebhookEndpointRecord) => setCreated(data),
          onError: (error: unknown) => {
            const message = errorWithoutField(error);
            if (message) notify(message, { type: 'error' });
          },
        }}
      >
        <SimpleForm sx={{ maxWidth: 720 }}>
          <TextInput
            source="url"
            label="URL"
            validate={urlProblem}
            helperText="Where deliveries are POSTed, e.g. https://example.com/webhooks/labdesk"
            fullWidth
          />
          <EventTypesInput source="event_types" label="Event types" />
          <CountedTextInput source="description" label="Description" max={DESCRIPTION_MAX} helperText="Optional: what this endpoint is for" />
        </SimpleForm>
      </Create>
      {created && (
        <SecretDialog
          secret={created.secret}
          onClose={() => {
            const id = created.id;
            setCreated(null);
            redirect('show', 'webhook-endpoints', id);
          }}
        />
      )}
    </>
  );
};
