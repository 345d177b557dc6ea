/**
 * Order triage routes (`/api/orders/:id/triage/...`, `/api/orders/:id/notes`, bulk actions under
 * `/api/orders/triage/...`). The state is the BFF's own; only reship and recreate call the service
 * (to place the new order). Notes are health-related free text: every read and write is audited
 * with the order's patient, and their text never reaches the logs or the service.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AddNoteBody,
  BulkClaimBody,
  BulkResolveBody,
  BulkResult,
  ClaimBody,
  ErrorBody,
  IdParams,
  OrderNoteRecord,
  OrderTriageState,
  ReplaceKitBody,
  ReplaceKitResult,
  ResolveBody,
  UnclaimBody,
  type AuditAction,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import * as actions from '../triage/actions';
import type { Order } from '../../contract';
import type { ServiceClient } from '../upstream/client';
import { toBffError, UpstreamError } from '../upstream/errors';

const TAGS = ['order-triage'];
/** The answer names no record by `id`: the order and its patient come from the note. */
const audited = (resource: string, action: AuditAction) => ({ audit: { resource, action, records: () => [], patients: () => [] } });

function noteOrder(req: FastifyRequest, ...orders: Order[]) {
  req.auditNote.recordIds = [...(req.auditNote.recordIds ?? []), ...orders.map((o) => o.id)];
  req.auditNote.patientIds = [...(req.auditNote.patientIds ?? []), ...orders.map((o) => o.user_id)];
}

export function orderTriageResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canTriage = requirePermission('orders:triage', 'work the order triage queue');
    const ctxOf = (req: FastifyRequest): actions.TriageContext => ({ client, db: app.bffDb, me: req.session!.user });
    const stateAnswer = { 200: OrderTriageState, '4XX': ErrorBody };

    app.get(
      '/orders/:id/triage',
      {
        preValidation: canTriage,
        schema: { operationId: 'getOrderTriage', tags: TAGS, params: IdParams, response: stateAnswer },
        config: audited('order_triage', 'read'),
      },
      async (req) => {
        const order = await actions.orderOf(client, req.params.id);
        noteOrder(req, order);
        return actions.stateOfOrder(ctxOf(req), order);
      },
    );

    app.post(
      '/orders/:id/triage/claim',
      {
        preValidation: canTriage,
        schema: {
          operationId: 'claimOrder',
          summary: 'Claim an order for the signed-in member; someone else’s claim is 409 (code claimed_by_other) unless `force`',
          tags: TAGS,
          params: IdParams,
          body: ClaimBody.nullish(),
          response: stateAnswer,
        },
        config: audited('order_triage', 'claim'),
      },
      async (req) => {
        req.auditNote.detail = { force: req.body?.force === true };
        const { order, state } = await actions.claimOrder(ctxOf(req), req.params.id, req.body ?? {});
        noteOrder(req, order);
        return state;
      },
    );

    app.post(
      '/orders/:id/triage/unclaim',
      {
        preValidation: canTriage,
        schema: { operationId: 'unclaimOrder', summary: 'Release the claim (someone else’s only with `force`)', tags: TAGS, params: IdParams, body: UnclaimBody.nullish(), response: stateAnswer },
        config: audited('order_triage', 'unclaim'),
      },
      async (req) => {
        const { order, state } = await actions.unclaimOrder(ctxOf(req), req.params.id, req.body?.force === true);
        noteOrder(req, order);
        return state;
      },
    );

    app.post(
      '/orders/:id/triage/resolve',
      {
        preValidation: canTriage,
        schema: {
          operationId: 'resolveOrder',
          summary: 'Resolve: the order leaves the queue until its status changes again',
          tags: TAGS,
          params: IdParams,
          body: ResolveBody,
          response: stateAnswer,
        },
        config: audited('order_triage', 'resolve'),
      },
      async (req) => {
        req.auditNote.detail = { outcome: req.body.outcome };
        const { order, state } = await actions.resolveOrder(ctxOf(req), req.params.id, req.body.outcome, req.body.note);
        noteOrder(req, order);
        return state;
      },
    );

    for (const action of ['reship', 'recreate'] as const) {
      app.post(
        `/orders/:id/triage/${action}`,
        {
          preValidation: canTriage,
          schema: {
            operationId: `${action}OrderKit`,
            summary:
              action === 'reship'
                ? 'A lost kit: the service places a new order under the same lab account; resolved as reshipped'
                : 'A lost kit: the service places a new order at a freshly resolved lab account (replacing the original with INCORRECT_LAB while it is open); resolved as recreated',
            tags: TAGS,
            params: IdParams,
            body: ReplaceKitBody,
            response: { 200: ReplaceKitResult, '4XX': ErrorBody },
          },
          config: audited('order_triage', action),
        },
        async (req) => {
          const { order, replacement, state } = await actions.replaceKit(ctxOf(req), req.params.id, action, req.body.note);
          noteOrder(req, order, replacement);
          return { triage: state, order: replacement };
        },
      );
    }

    app.get(
      '/orders/:id/notes',
      {
        preValidation: canTriage,
        schema: { operationId: 'listOrderNotes', summary: 'Staff notes, oldest first', tags: TAGS, params: IdParams, response: { 200: z.array(OrderNoteRecord), '4XX': ErrorBody } },
        config: audited('order_notes', 'list'),
      },
      async (req) => {
        const { order, notes } = await actions.notesOf(ctxOf(req), req.params.id);
        noteOrder(req, order);
        req.auditNote.detail = { count: notes.length };
        return notes;
      },
    );

    app.post(
      '/orders/:id/notes',
      {
        preValidation: canTriage,
        schema: { operationId: 'addOrderNote', tags: TAGS, params: IdParams, body: AddNoteBody, response: { 201: OrderNoteRecord, '4XX': ErrorBody } },
        config: audited('order_notes', 'create'),
      },
      async (req, reply) => {
        const { order, note } = await actions.addOrderNote(ctxOf(req), req.params.id, req.body.body);
        noteOrder(req, order);
        req.auditNote.detail = { note_id: note.id };
        return reply.status(201).send(note);
      },
    );

    /** Runs one action per id, each on its own: a failure is reported for its id and undoes nothing else. */
    async function eachId(req: FastifyRequest, ids: string[], run: (id: string) => Promise<{ order: Order }>): Promise<BulkResult> {
      const results: BulkResult['results'] = [];
      for (const id of ids) {
        try {
          const { order } = await run(id);
          noteOrder(req, order);
          results.push({ id, ok: true, status: 200 });
        } catch (err) {
          const e = err instanceof BffError ? err : err instanceof UpstreamError ? toBffError(err) : null;
          if (!e) throw err;
          results.push({ id, ok: false, status: e.statusCode, message: e.message, ...(e.code ? { code: e.code } : {}) });
        }
      }
      req.auditNote.detail = { ...req.auditNote.detail, requested: ids.length, failed: results.filter((r) => !r.ok).length };
      return { results };
    }

    app.post(
      '/orders/triage/bulk-claim',
      {
        preValidation: canTriage,
        schema: {
          operationId: 'bulkClaimOrders',
          summary: 'Claim each selected order; one result per id (a failure does not undo the others)',
          tags: TAGS,
          body: BulkClaimBody,
          response: { 200: BulkResult, '4XX': ErrorBody },
        },
        config: audited('order_triage', 'claim'),
      },
      async (req) => eachId(req, [...new Set(req.body.ids)], (id) => actions.claimOrder(ctxOf(req), id, { force: req.body.force })),
    );

    app.post(
      '/orders/triage/bulk-resolve',
      {
        preValidation: canTriage,
        schema: {
          operationId: 'bulkResolveOrders',
          summary: 'Resolve each selected order with one outcome and note; one result per id (a failure does not undo the others)',
          tags: TAGS,
          body: BulkResolveBody,
          response: { 200: BulkResult, '4XX': ErrorBody },
        },
        config: audited('order_triage', 'resolve'),
      },
      async (req) => {
        req.auditNote.detail = { outcome: req.body.outcome };
        return eachId(req, [...new Set(req.body.ids)], (id) => actions.resolveOrder(ctxOf(req), id, req.body.outcome, req.body.note));
      },
    );
  };
}
