import type { Database } from '../../store/db';
import type { JobHandler } from './queue';
import type { ServiceSchema } from '../db/schema';
import { APPOINTMENT_CONFIRM_KIND } from '../domain/appointments/book';
import { runConfirmJob } from '../domain/appointments/confirmJob';
import { advanceOrder, ORDER_ADVANCE_KIND, type Rand } from '../domain/orders/lifecycle';
import { runSimulateStep, SIMULATE_STEP_KIND } from '../domain/orders/simulate';
import { PARSE_JOB_KIND } from '../domain/parsingJobs/create';
import { runParseJob, type Parse } from '../domain/parsingJobs/run';
import { runDeliveryJob } from '../webhooks/deliver';
import { dispatchJob } from '../webhooks/dispatcher';
import { WEBHOOK_DELIVER_KIND, WEBHOOK_DISPATCH_KIND, type WebhookWorkerOptions } from '../webhooks/kinds';

export interface JobHandlerOptions {
  /** Random numbers for the order lifecycle; a seeded generator in tests. */
  random?: Rand;
  /** Webhook delivery: private URLs allowed or not, attempt timeout, dispatch interval, clock. */
  webhooks?: WebhookWorkerOptions;
  /** The lab-report parser: the sandboxed reader pool in the service; in-process or a stand-in in tests. */
  parse?: Parse;
}

/** Every kind of background job the service runs, by kind. */
export function jobHandlers(db: Database<ServiceSchema>, opts: JobHandlerOptions = {}): Record<string, JobHandler> {
  const random = opts.random ?? Math.random;
  const webhooks = opts.webhooks ?? {};
  return {
    [ORDER_ADVANCE_KIND]: async (payload, ctx) => {
      await advanceOrder(db, payload, ctx, random);
    },
    [SIMULATE_STEP_KIND]: async (payload, ctx) => {
      await runSimulateStep(db, payload, ctx);
    },
    [APPOINTMENT_CONFIRM_KIND]: async (payload) => {
      const { retryAt } = await runConfirmJob(db, payload, undefined, random);
      return retryAt ? { retryAt } : undefined;
    },
    [PARSE_JOB_KIND]: (payload, ctx) => runParseJob(db, payload, ctx, opts.parse),
    [WEBHOOK_DISPATCH_KIND]: dispatchJob(db, webhooks),
    [WEBHOOK_DELIVER_KIND]: (payload, ctx) => runDeliveryJob(db, payload, webhooks, ctx),
  };
}
