import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BiomarkerHistory, BiomarkerParams, BiomarkerSummaries, errorResponses, UserIdParams } from '../../contract';
import { biomarkerHistory, biomarkerSummaries } from '../domain/biomarkers/history';

const tags = ['biomarkers'];
const security = [{ apiKey: [] }];

/** Extension: a patient's lab values over time, joined across ordered tests and uploaded reports. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v2/user/:user_id/biomarkers', {
    schema: {
      tags,
      security,
      operationId: 'getUserBiomarkers', summary: 'Extension: the latest value of each of the patient’s analytes',
      description:
        'One entry per analyte (by LOINC code; by printed name where the code is unknown): the latest value with its flag and source, how many values there are, the previous value and the trend (up, down, flat: within 5 %). Sources: order results and completed lab reports (approved in review or trusted by the reader). Values are compared in the analyte’s one unit (UCUM conversion). Another team’s user is 404.',
      params: UserIdParams,
      response: { 200: BiomarkerSummaries, ...errorResponses },
    },
    handler: (req) => biomarkerSummaries(app.db, req.teamId, req.params.user_id),
  });

  app.get('/v2/user/:user_id/biomarkers/:loinc', {
    schema: {
      tags,
      security,
      operationId: 'getUserBiomarkerHistory', summary: 'Extension: every value of one analyte for the patient',
      description:
        'Oldest first. Each value as reported (`value`, `unit`, `reference_range`) and, where UCUM can convert it, in the analyte’s unit (`normalized_value`, `normalized_unit`, and the range likewise), with its source (`order` with order_id, or `lab_report` with parsing_job_id), interpretation and collection time. A glucose reported in mmol/L and one in mg/dL share one unit here.',
      params: BiomarkerParams,
      response: { 200: BiomarkerHistory, ...errorResponses },
    },
    handler: (req) => biomarkerHistory(app.db, req.teamId, req.params.user_id, req.params.loinc),
  });
};

export default routes;
