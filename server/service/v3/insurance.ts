import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, ValidateIcdCodesBody, ValidateIcdCodesResponse } from '../../contract';
import { validateIcdCodes } from '../domain/icd10/validate';

const insuranceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/v3/insurance/validate_icd_codes', {
    schema: {
      tags: ['insurance'],
      security: [{ apiKey: [] }],
      operationId: 'validateIcdCodes',
      summary: 'Validate ICD-10 diagnosis codes',
      description:
        'Checks each code against the ICD-10-CM code set: unknown codes and category (header) codes, which a claim cannot carry, are `errors` (one sentence each, naming the code first); ' +
        'two codes under an Excludes1 note are `violations` (never coded together), under an Excludes2 note `warnings`. `valid` is true when there are neither errors nor violations. ' +
        'Codes are compared without case, with or without their dot.',
      body: ValidateIcdCodesBody,
      response: { 200: ValidateIcdCodesResponse, ...errorResponses },
    },
    handler: (req) => validateIcdCodes(req.body.codes),
  });
};

export default insuranceRoutes;
