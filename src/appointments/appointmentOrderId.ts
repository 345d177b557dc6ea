import type { AppointmentRecord } from './types';

/** The order an appointment belongs to: the embedded order's id, else the record's own order id (the BFF keys appointments by order). */
export const appointmentOrderId = (record: AppointmentRecord) => String(record.order?.id ?? record.order_id ?? record.id);
