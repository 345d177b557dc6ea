export type { UserRecord } from '../../server/bff/api';
