import type { z } from 'zod';
import { ValidateIcdCodesBody, ValidateIcdCodesResponse } from '../../contract';

/** `POST /api/icd-codes/validate`: the service's check of diagnosis codes, as it answers it. */
export const ValidateIcdCodes = ValidateIcdCodesBody.meta({ id: 'ValidateIcdCodes' });
export const IcdCodesVerdict = ValidateIcdCodesResponse.meta({ id: 'IcdCodesVerdict' });
export type IcdCodesVerdict = z.infer<typeof IcdCodesVerdict>;
