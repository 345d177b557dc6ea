import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AcknowledgeCriticalBody, CriticalAcknowledgement, ErrorBody, errorResponses, LabResultsMetadata, LabResultsRaw, OrderParams } from '../../contract';
import { acknowledgeCritical, getCriticalAcknowledgement } from '../domain/results/acknowledge';
import { getLabResults, getResultsMetadata } from '../domain/results/presentResults';
import { resultReportPdf } from '../domain/results/resultPdf';

const tags = ['results'];
const security = [{ apiKey: [] }];
const notYet = ErrorBody.describe('Another team’s or an unknown order, or no results yet (the detail says which)');

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v3/order/:order_id/result', {
    schema: {
      tags,
      security,
      operationId: 'getOrderResults', summary: 'The order’s lab results',
      description:
        'LabResultsRaw: the report header (`metadata`, with `status` partial or final), every result reported so far (value as reported, type, unit, reference range, range flags, interpretation, LOINC, the markers it was ordered under, the performing laboratory) and the results the lab could not produce (`missing_results`, with `inferred_failure_type`). 404 before the lab has reported anything.',
      params: OrderParams,
      response: { 200: LabResultsRaw, ...errorResponses, 404: notYet },
    },
    handler: (req) => getLabResults(app.db, req.teamId, req.params.order_id),
  });

  app.get('/v3/order/:order_id/result/metadata', {
    schema: {
      tags,
      security,
      operationId: 'getOrderResultsMetadata', summary: 'The header of the order’s result report',
      params: OrderParams,
      response: { 200: LabResultsMetadata, ...errorResponses, 404: notYet },
    },
    handler: (req) => getResultsMetadata(app.db, req.teamId, req.params.order_id),
  });

  app.get('/v3/order/:order_id/result/pdf', {
    schema: {
      tags,
      security,
      operationId: 'getOrderResultsPdf', summary: 'The order’s result report (PDF)',
      description: 'The laboratory’s report: patient, specimen, collected, received and reported times, each result with its flag and reference range, missing results with the reason, comments and the performing laboratory with its CLIA number.',
      params: OrderParams,
      response: {
        200: { description: 'The result report', content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary', description: 'PDF document' }) } } },
        ...errorResponses,
        404: notYet,
      },
    },
    handler: async (req, reply) => {
      const { bytes, fileName } = await resultReportPdf(app.db, req.teamId, req.params.order_id);
      return reply.type('application/pdf').header('content-disposition', `inline; filename="${fileName}"`).header('cache-control', 'no-store').send(Buffer.from(bytes));
    },
  });

  app.get('/v3/order/:order_id/result/critical/acknowledgement', {
    schema: {
      tags,
      security,
      operationId: 'getCriticalAcknowledgement', summary: 'Extension: who acknowledged the order’s critical value',
      params: OrderParams,
      response: { 200: CriticalAcknowledgement.nullable(), ...errorResponses, 404: notYet },
    },
    handler: (req) => getCriticalAcknowledgement(app.db, req.teamId, req.params.order_id),
  });

  app.post('/v3/order/:order_id/result/critical/acknowledgement', {
    schema: {
      tags,
      security,
      operationId: 'acknowledgeCriticalResult', summary: 'Extension: acknowledge the order’s critical value',
      description:
        'Records that someone has acted on the critical value: `acknowledged_by` (as your system names them) and an optional note. 201 the first time; 200 with the first acknowledgement when there already is one; 409 when the order has no critical result.',
      params: OrderParams,
      body: AcknowledgeCriticalBody,
      response: { 200: CriticalAcknowledgement, 201: CriticalAcknowledgement, ...errorResponses, 404: notYet, 409: ErrorBody },
    },
    handler: async (req, reply) => {
      const { created, acknowledgement } = await acknowledgeCritical(app.db, req.teamId, req.params.order_id, req.body);
      return reply.status(created ? 201 : 200).send(acknowledgement);
    },
  });
};

export default routes;
