import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Order } from '../../contract';
import {
  AcknowledgeCritical,
  BiomarkerHistoryParams,
  CriticalAcknowledgement,
  ErrorBody,
  IdParams,
  isUuid,
  OrderResults,
  PatientBiomarkerHistory,
  PatientBiomarkers,
  RESULTS_NOT_READY,
  TeamSettingsRecord,
  UpdateTeamSettings,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { sendPdf } from './sendPdf';

const TAGS = ['results'];
const orderNotFound = () => new BffError(404, 'Order not found');
const userNotFound = () => new BffError(404, 'User not found');

/** An upstream 404 of a results call: the order is unknown, or it is known and has no results yet. */
async function notReadyOrNotFound(client: ServiceClient, orderId: string, err: UpstreamError): Promise<BffError> {
  try {
    return notReady(await client.getOrder(orderId));
  } catch {
    return err.status === 404 ? orderNotFound() : new BffError(502, 'The service did not answer the results');
  }
}

const notReady = (order: Order) => new BffError(404, `No results yet: the order is ${order.status ?? 'in progress'}`, undefined, RESULTS_NOT_READY);

/** The order, read first where the audit trail must name its patient; unknown or another team's is 404. */
async function orderOf(client: ServiceClient, orderId: string): Promise<Order> {
  if (!isUuid(orderId)) throw orderNotFound();
  try {
    return await client.getOrder(orderId);
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw orderNotFound();
    throw err;
  }
}

/**
 * Whether the results carry a critical value. The values decide, not the order-level interpretation:
 * a critical value released with partial results stays critical even where a later report is
 * summarised otherwise, and it still needs someone to act on it.
 */
const hasCriticalValue = (results: OrderResults) =>
  results.metadata.interpretation === 'critical' || results.results.some((r) => r.interpretation === 'critical');

/** Where a deployment has no acknowledgement extension, the results still show; acknowledging then says it cannot. */
async function acknowledgementOf(client: ServiceClient, orderId: string) {
  try {
    return await client.getCriticalAcknowledgement(orderId);
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 405)) return undefined;
    throw err;
  }
}

/**
 * Lab results: an order's results and result report, acknowledging a critical value, a patient's
 * biomarker history, and the team's result webhooks setting. Audited with ids only.
 */
export function resultsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('results:read', 'see lab results');

    app.get(
      '/orders/:id/results',
      {
        preValidation: canRead,
        schema: { operationId: 'getOrderResults', tags: TAGS, params: IdParams, response: { 200: OrderResults, '4XX': ErrorBody } },
        config: { audit: { resource: 'order_results', action: 'read', records: () => [], patients: (r: OrderResults) => [r.metadata.patient_id] } },
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw orderNotFound();
        req.auditNote.recordIds = [id];
        let results;
        try {
          results = await client.getOrderResults(id);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) throw await notReadyOrNotFound(client, id, err);
          throw err;
        }
        return { ...results, ...(hasCriticalValue(results) ? { critical_acknowledgement: await acknowledgementOf(client, id) } : {}) };
      },
    );

    app.get(
      '/orders/:id/results.pdf',
      {
        preValidation: canRead,
        schema: {
          operationId: 'getOrderResultsPdf',
          tags: TAGS,
          params: IdParams,
          produces: ['application/pdf'],
          response: { 200: z.any().describe('The result report PDF'), '4XX': ErrorBody },
        },
        config: { audit: { resource: 'order_results', action: 'download' } },
      },
      async (req, reply) => {
        const { id } = req.params;
        const order = await orderOf(client, id);
        req.auditNote.recordIds = [id];
        req.auditNote.patientIds = [order.user_id];
        let pdf;
        try {
          pdf = await client.orderResultsPdf(id);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) throw notReady(order);
          throw err;
        }
        return sendPdf(reply, pdf, { what: 'the result report', disposition: 'inline', fileName: `results-${id.toLowerCase()}.pdf` });
      },
    );

    app.post(
      '/orders/:id/critical-acknowledgement',
      {
        preValidation: requirePermission('results:acknowledge', 'acknowledge critical results'),
        schema: {
          operationId: 'acknowledgeCriticalResult',
          tags: TAGS,
          params: IdParams,
          body: AcknowledgeCritical,
          response: { 200: CriticalAcknowledgement, 201: CriticalAcknowledgement, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'order_results', action: 'acknowledge', records: () => [] } },
      },
      async (req, reply) => {
        const { id } = req.params;
        const order = await orderOf(client, id);
        req.auditNote.recordIds = [id];
        req.auditNote.patientIds = [order.user_id];
        const user = req.session!.user;
        // The service records a name; the audit trail records the member's id beside it.
        const by = `${user.name} <${user.email}>`;
        try {
          const { created, acknowledgement } = await client.acknowledgeCritical(id, { acknowledged_by: by, note: req.body.note || null });
          req.auditNote.detail = { first: created };
          return reply.status(created ? 201 : 200).send(acknowledgement);
        } catch (err) {
          if (err instanceof UpstreamError) {
            if (err.status === 404) throw notReady(order);
            if (err.status === 405) throw new BffError(501, 'This service does not record acknowledgements of critical results');
            if (err.status === 409) throw new BffError(409, 'This order has no critical result to acknowledge');
          }
          throw err;
        }
      },
    );

    app.get(
      '/users/:id/biomarkers',
      {
        preValidation: canRead,
        schema: { operationId: 'getPatientBiomarkers', tags: TAGS, params: IdParams, response: { 200: PatientBiomarkers, '4XX': ErrorBody } },
        config: { audit: { resource: 'biomarkers', action: 'read', records: () => [] } },
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw userNotFound();
        req.auditNote.patientIds = [id];
        try {
          return await client.userBiomarkers(id);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) throw userNotFound();
          throw err;
        }
      },
    );

    app.get(
      '/users/:id/biomarkers/:loinc',
      {
        preValidation: canRead,
        schema: { operationId: 'getPatientBiomarkerHistory', tags: TAGS, params: BiomarkerHistoryParams, response: { 200: PatientBiomarkerHistory, '4XX': ErrorBody } },
        config: { audit: { resource: 'biomarkers', action: 'read', records: () => [] } },
      },
      async (req) => {
        const { id, loinc } = req.params;
        if (!isUuid(id)) throw userNotFound();
        req.auditNote.patientIds = [id];
        req.auditNote.detail = { loinc };
        try {
          return await client.userBiomarkerHistory(id, loinc);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404) throw userNotFound();
          throw err;
        }
      },
    );

    const canManage = requirePermission('webhooks:manage', 'change the team’s webhook settings');
    app.get(
      '/team-settings',
      {
        preValidation: canManage,
        schema: { operationId: 'getTeamSettings', tags: ['webhooks'], response: { 200: TeamSettingsRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'team_settings', action: 'read', records: () => [], patients: () => [] } },
      },
      async () => {
        try {
          return await client.getTeamSettings();
        } catch (err) {
          if (err instanceof UpstreamError && (err.status === 404 || err.status === 405)) throw new BffError(501, 'This service has no team settings');
          throw err;
        }
      },
    );
    app.put(
      '/team-settings',
      {
        preValidation: canManage,
        schema: { operationId: 'updateTeamSettings', tags: ['webhooks'], body: UpdateTeamSettings, response: { 200: TeamSettingsRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'team_settings', action: 'update', records: () => [], patients: () => [] } },
      },
      async (req) => {
        req.auditNote.detail = { ...req.body };
        try {
          return await client.updateTeamSettings(req.body);
        } catch (err) {
          if (err instanceof UpstreamError && (err.status === 404 || err.status === 405)) throw new BffError(501, 'This service has no team settings');
          throw err;
        }
      },
    );
  };
}
