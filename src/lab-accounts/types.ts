import type { LabAccount } from '../../server/contract';

/** A lab-accounts record as the BFF serves it: the service's LabAccount (it already has `id`). */
export type LabAccountRecord = LabAccount;
