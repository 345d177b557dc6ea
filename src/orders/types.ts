import type { LabTest, Order } from '../../server/contract';

/** An orders record as the BFF serves it: the service's ClientFacingOrder (it already has `id`). */
export type OrderRecord = Order;
/** A lab-tests record (`GET /api/lab-tests`). */
export type LabTestRecord = LabTest;
