import type { Database } from '../../store/db';
import type { JobHandler } from '../../store/jobs';
import type { ServiceSchema } from '../db/schema';

/** Every kind of background job the service runs, by kind. */
export function jobHandlers(_db: Database<ServiceSchema>): Record<string, JobHandler> {
  return {};
}
