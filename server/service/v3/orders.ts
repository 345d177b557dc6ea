import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateOrderBody,
  ErrorBody,
  errorResponses,
  ImportOrderBody,
  NOTES_MAX,
  Order,
  OrderParams,
  ORDERS_DEFAULT_SIZE,
  ORDERS_MAX_SIZE,
  OrdersQuery,
  OrdersResponse,
  PostOrderResponse,
} from '../../contract';
import { cancelOrder } from '../domain/orders/cancel';
import { createOrderOnce } from '../domain/orders/create';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IN_FLIGHT_TIMEOUT_MS } from '../domain/orders/idempotency';
import { importOrder } from '../domain/orders/import';
import { listOrders } from '../domain/orders/list';
import { getOrder } from '../domain/orders/present';
import { renderRequisition, requisitionData } from '../domain/orders/requisition';

const tags = ['orders'];
const security = [{ apiKey: [] }];

/** Headers of order creation; other headers pass through untouched. */
const CreateOrderHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .min(1, 'must not be empty')
    .max(IDEMPOTENCY_KEY_MAX, `must be at most ${IDEMPOTENCY_KEY_MAX} characters`)
    .optional()
    .describe('Same key and same body: the first answer again, and no second order'),
  'x-idempotency-error': z.string().max(40).optional().describe('"no-cache" is accepted; failed requests are never cached anyway'),
});

const createDescription = `Creates an order for one of the team's users (another team's user_id is 404).

**Tests.** Give \`lab_test_id\` (a catalogue or team lab test), or an \`order_set\`: \`lab_test_ids\` plus \`add_on.marker_ids\` (or \`add_on.provider_ids\`, the lab's test codes). An order set becomes an auto-generated lab test of the team; all its tests and markers must be of one lab. Unknown ids are 422 naming them. \`collection_method\` defaults to the lab test's method; \`billing_type\` to client_bill.

**Lab account.** \`lab_account_id\` (or \`order_set.lab_account_id\`) names the team's lab account; it must be active (pending accounts are accepted only by POST /v3/order/import), of the lab of every panel and marker (else 422 listing the ones that are not), and allowed to bill \`billing_type\` in the patient's state. Left out, the service picks the first active account of the order's lab whose allowed_billing[billing_type] includes patient_address.state; none is 422. The order's \`lab_account_id\` says which account was used.

**Notes.** \`clinical_notes\` (at most ${NOTES_MAX} characters) is printed on the requisition, followed by the lab account's default clinical notes. \`patient_address.access_notes\` (at most ${NOTES_MAX} characters): gate codes, parking, entrance directions.

**Clinical details.** \`physician.npi\` must carry its Luhn check digit (prefix 80840); \`icd_codes\` must have the ICD-10 form (POST /v3/insurance/validate_icd_codes checks them against the code set); \`billing_type\` commercial_insurance requires \`health_insurance\` (payor_code, insurance_id, responsible_relationship, and responsible_details unless Self), answered back as \`health_insurance_id\` and the extension \`health_insurance\`; \`consents\` are recorded with their version and time (now when not given). Every required question (\`aoe.questions\`) of every marker of the order needs an answer in \`aoe_answers\`, or takes the question's default; otherwise 422 at body.aoe_answers naming the question.

**Replacing an order (INCORRECT_LAB).** \`{"update_reason": "INCORRECT_LAB", "original_order_id": "<id>", ...the new order's body}\`: the original order (the team's, else 404; the same user_id and not completed, cancelled or failed, else 422) is cancelled in the same transaction that creates the new order, and a fresh lab account is resolved that is never the original's (naming the original's account is 422). The new order carries update_reason and original_order_id.

**Idempotency.** With \`X-Idempotency-Key\` (at most ${IDEMPOTENCY_KEY_MAX} characters, per team): the same key with the same body answers the first answer again (same order, same status) without creating another order; the same key with a different body is 422 (loc header x-idempotency-key); while the first request is still in flight, 409. A request that fails (e.g. 422) frees its key, so a corrected retry may reuse it; a claim left in flight for over ${IN_FLIGHT_TIMEOUT_MS / 60_000} minutes is abandoned and taken over.

The order starts at received.<collection_method>.ordered; a \`labtest.order.created\` webhook event is recorded and the lifecycle moves it on in the background. Also served at POST /v3/order.`;

const routes: FastifyPluginAsyncZod = async (app) => {
  const createSchema = {
    tags,
    security,
    operationId: 'createOrder', summary: 'Create an order',
    description: createDescription,
    headers: CreateOrderHeaders,
    body: CreateOrderBody,
    response: { 200: PostOrderResponse, 409: ErrorBody.describe('The same X-Idempotency-Key is still in flight'), ...errorResponses },
  };
  const createHandler = async (req: FastifyRequest<{ Body: CreateOrderBody; Headers: z.infer<typeof CreateOrderHeaders> }>, reply: FastifyReply) => {
    const answer = await createOrderOnce(app.db, req.teamId, req.body, req.headers[IDEMPOTENCY_KEY_HEADER]);
    return reply.status(answer.status).send(answer.body);
  };
  app.post('/v3/order/create', { schema: createSchema }, createHandler);
  app.post('/v3/order', { schema: { ...createSchema, operationId: 'createOrderAtSdkPath', summary: 'Create an order (the SDK path of POST /v3/order/create)' } }, createHandler);

  app.post('/v3/order/import', {
    schema: {
      tags,
      security,
      operationId: 'importOrder', summary: 'Import an order whose sample was collected elsewhere',
      description:
        'Like order creation (same lab test, order set and lab account rules), except that lab accounts in PENDING status are accepted; suspended accounts are refused (422). `sample_id` is stored; the order\'s origin is "imported". No idempotency headers.',
      body: ImportOrderBody,
      response: { 200: PostOrderResponse, ...errorResponses },
    },
    handler: (req) => importOrder(app.db, req.teamId, req.body),
  });

  app.get('/v3/order/:order_id', {
    schema: {
      tags,
      security,
      operationId: 'getOrder', summary: 'Get an order',
      description: 'status and low_level_status may hold values not listed anywhere yet: treat them as open-ended.',
      params: OrderParams,
      response: { 200: Order, ...errorResponses },
    },
    handler: (req) => getOrder(app.db, req.teamId, req.params.order_id),
  });

  app.get('/v3/orders', {
    schema: {
      tags,
      security,
      operationId: 'listOrders', summary: 'List the team’s orders',
      description: `Page numbers from 1; \`size\` defaults to ${ORDERS_DEFAULT_SIZE}, at most ${ORDERS_MAX_SIZE}; \`total\` counts every match. Filters: \`status\` (low-level status, repeatable; unknown values match nothing), \`order_type\` (collection method, repeatable), \`user_id\`, \`order_ids\` (repeatable), \`start_date\`/\`end_date\` on created_at and \`updated_start_date\`/\`updated_end_date\` on updated_at (YYYY-MM-DD means 00:00:00 for a start and 23:59:59.999 UTC for an end; date-times without an offset are UTC), \`patient_name\` (substring of "first last"), \`search_input\` (substring of the order id, sample id, patient name or the user's client_user_id). Sort with \`order_key\`: created_at (default), patient_name (last name, then first name) or last_status (time of the latest status event), and \`order_direction\` (default desc).`,
      querystring: OrdersQuery,
      response: { 200: OrdersResponse, ...errorResponses },
    },
    handler: (req) => listOrders(app.db, req.teamId, req.query),
  });

  app.post('/v3/order/:order_id/cancel', {
    // No body: a client that still sends an empty one with a JSON content type is not refused for it.
    onRequest: async (req) => {
      if (!req.headers['transfer-encoding'] && Number(req.headers['content-length'] ?? 0) === 0) delete req.headers['content-type'];
    },
    schema: {
      tags,
      security,
      operationId: 'cancelOrder', summary: 'Cancel an order',
      description:
        'Moves the order to cancelled.<collection_method>.cancelled and records a `labtest.order.updated` webhook event. An order already completed, cancelled or failed cannot be cancelled: 422 at loc ["path", "order_id"]. No body.',
      params: OrderParams,
      response: { 200: PostOrderResponse, ...errorResponses },
    },
    handler: (req) => cancelOrder(app.db, req.teamId, req.params.order_id),
  });

  app.get('/v3/order/:order_id/requisition/pdf', {
    schema: {
      tags,
      security,
      operationId: 'getOrderRequisitionPdf', summary: 'The order’s requisition form (PDF)',
      description:
        "A PDF: order id and dates, patient (name, date of birth, address with access notes), physician, lab and lab account (name, provider account id), the tests with their codes, and the clinical notes: the order's clinical_notes followed by the lab account's default clinical notes.",
      params: OrderParams,
      response: {
        200: { description: 'The requisition', content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary', description: 'PDF document' }) } } },
        ...errorResponses,
      },
    },
    handler: async (req, reply) => {
      const data = await requisitionData(app.db, req.teamId, req.params.order_id);
      const pdf = await renderRequisition(data);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="requisition-${data.order.id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  });
};

export default routes;
