export type { LabAccountRecord } from '../../server/bff/api';
