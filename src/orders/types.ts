export type { LabTestRecord, OrderRecord } from '../../server/bff/api';
