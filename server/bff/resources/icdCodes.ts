/**
 * `POST /api/icd-codes/validate`: the order form asks the service whether the diagnosis codes it
 * was given are real, billable ICD-10-CM codes that may be coded together. Codes alone name no
 * patient and no record, so there is nothing to audit; only those who place orders may ask.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody, IcdCodesVerdict, ValidateIcdCodes } from '../api';
import { requirePermission } from '../auth/plugin';
import type { ServiceClient } from '../upstream/client';

export function icdCodesResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/validate',
      {
        preValidation: requirePermission('orders:write', 'check diagnosis codes for an order'),
        schema: { operationId: 'validateIcdCodes', tags: ['orders'], body: ValidateIcdCodes, response: { 200: IcdCodesVerdict, '4XX': ErrorBody } },
      },
      async (req) => client.validateIcdCodes(req.body),
    );
  };
}
