import { describe, expect, it } from 'vitest';
import type { UserRecord } from './types';
import { toCreateUserBody, toUpdateUserBody, userFormValues } from './userForm';

const record = {
  id: 'u-1',
  user_id: 'u-1',
  team_id: 't-1',
  client_user_id: 'pt-1',
  created_on: '2026-05-01T12:00:00.000Z',
  connected_sources: [],
  fallback_time_zone: { id: 'Europe/Paris', source_slug: 'manual', updated_at: '2026-05-01T12:00:00.000Z' },
  fallback_birth_date: { value: '1984-02-29', source_slug: 'manual', updated_at: '2026-05-01T12:00:00.000Z' },
  ingestion_start: null,
  ingestion_end: '2026-12-31',
} as UserRecord;

describe('the patient form', () => {
  it('starts an edit from the record’s flat values', () => {
    expect(userFormValues(record)).toEqual({
      id: 'u-1',
      client_user_id: 'pt-1',
      fallback_time_zone: 'Europe/Paris',
      fallback_birth_date: '1984-02-29',
      ingestion_start: null,
      ingestion_end: '2026-12-31',
    });
  });

  it('leaves blank optional fields out of a new patient', () => {
    expect(toCreateUserBody({ client_user_id: 'pt-2', fallback_time_zone: ' ', fallback_birth_date: '1990-01-01', ingestion_start: null })).toEqual({
      client_user_id: 'pt-2',
      fallback_birth_date: '1990-01-01',
    });
  });

  it('clears an emptied field on edit rather than keeping it', () => {
    expect(toUpdateUserBody({ client_user_id: 'pt-1', fallback_time_zone: '', fallback_birth_date: '1984-02-29' })).toEqual({
      client_user_id: 'pt-1',
      fallback_time_zone: null,
      fallback_birth_date: '1984-02-29',
      ingestion_start: null,
      ingestion_end: null,
    });
  });
});
