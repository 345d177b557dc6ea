import type { Lab, MarkerComplete } from '../../server/contract';

/** A markers record as the BFF serves it: the service's MarkerComplete (integer `id`). */
export type MarkerRecord = MarkerComplete;
/** A labs record (`GET /api/labs`). */
export type LabRecord = Lab;
