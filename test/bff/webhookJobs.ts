/** Runs the service's webhook dispatcher and delivery jobs until nothing is due (no real waiting). */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../server/store/db';
import { jobs, type ServiceSchema } from '../../server/service/db/schema';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { WEBHOOK_DELIVER_KIND, WEBHOOK_DISPATCH_KIND } from '../../server/service/webhooks/kinds';

export async function deliverDueWebhooks(db: Database<ServiceSchema>) {
  const worker = new JobWorker(
    db,
    jobHandlers(db, { webhooks: { allowPrivateUrls: true, timeoutMs: 5000, dispatchIntervalMs: 3_600_000, random: () => 0.5 } }),
    { kinds: [WEBHOOK_DISPATCH_KIND, WEBHOOK_DELIVER_KIND] },
  );
  await db
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt), isNull(jobs.failedAt)));
  for (let round = 0; round < 50; round++) if ((await worker.runDueOnce()) === 0) return;
  throw new Error('webhook jobs still due after 50 rounds');
}
