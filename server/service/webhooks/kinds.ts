/** Job kinds of webhook delivery (server/service/jobs/queue.ts runs them; server/service/jobs/handlers.ts maps them). */
export const WEBHOOK_DISPATCH_KIND = 'webhook.dispatch';
export const WEBHOOK_DELIVER_KIND = 'webhook.deliver';

/** Delivery jobs fail (are retried by the job table) only on store errors; receiver failures are the delivery's own retries. */
export const DELIVER_JOB_MAX_ATTEMPTS = 25;
/** The dispatcher runs forever: it reschedules itself and must never be given up. */
export const DISPATCH_JOB_MAX_ATTEMPTS = 1_000_000;

export interface WebhookWorkerOptions {
  /** Deliver to private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_URLS). */
  allowPrivateUrls?: boolean;
  /** One attempt's time limit (connect, answer and body); default 10 s. */
  timeoutMs?: number;
  /** How often the dispatcher looks for new events when nothing woke it; default 5 s (an event wakes it at once). */
  dispatchIntervalMs?: number;
  /** How often the dispatcher looks for pending deliveries that lost their job; default 60 s. */
  sweepIntervalMs?: number;
  /** The clock of attempt times and retry schedules (tests). */
  now?: () => Date;
  /** Jitter of retry delays (tests). */
  random?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DISPATCH_INTERVAL_MS = 5000;
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
