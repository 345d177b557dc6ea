export type { LabRecord, MarkerRecord } from '../../server/bff/api';
