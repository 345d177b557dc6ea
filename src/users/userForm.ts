/**
 * The patient form's values are the BFF's write body (`CreateUser` / `UpdateUser`), flat, so the
 * service's refusals, which the BFF keys by those names, land on the inputs by themselves.
 */
import type { CreateUser } from '../../server/bff/api';
import type { UserRecord } from './types';

export type UserFormValues = { [K in keyof CreateUser]?: string | null };

const OPTIONAL = ['fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end'] as const;

/** The record's nested fallbacks as the form's flat values. */
export function userFormValues(record: UserRecord): UserFormValues & { id: string } {
  return {
    id: record.id,
    client_user_id: record.client_user_id,
    fallback_time_zone: record.fallback_time_zone?.id ?? null,
    fallback_birth_date: record.fallback_birth_date?.value ?? null,
    ingestion_start: record.ingestion_start ?? null,
    ingestion_end: record.ingestion_end ?? null,
  };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A new patient: blank optional fields are left out (the service's defaults apply). */
export function toCreateUserBody(values: UserFormValues): Record<string, string> {
  const body: Record<string, string> = { client_user_id: values.client_user_id ?? '' };
  for (const field of OPTIONAL) if (!blank(values[field])) body[field] = values[field]!.trim();
  return body;
}

/** An edit: a field emptied in the form is cleared (null), not left as it was. */
export function toUpdateUserBody(values: UserFormValues): Record<string, string | null> {
  const body: Record<string, string | null> = { client_user_id: values.client_user_id ?? '' };
  for (const field of OPTIONAL) body[field] = blank(values[field]) ? null : values[field]!.trim();
  return body;
}
