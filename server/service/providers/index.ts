import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../store/db';
import { settings, type ServiceSchema } from '../db/schema';
import { provider1 } from './provider_1';
import { provider2 } from './provider_2';
import { provider3 } from './provider_3';
import { provider4 } from './provider_4';
import type { PhlebotomyProvider, ProviderBehaviour } from './types';

export type { PhlebotomyProvider, ProviderBehaviour, ProviderBookingRequest, ProviderTicket, SlotTemplate, TicketState } from './types';

/** The phlebotomy provider adapters, by slug. */
export const PHLEBOTOMY_PROVIDERS: readonly PhlebotomyProvider[] = [provider1, provider2, provider3, provider4];

export function phlebotomyProvider(slug: string): PhlebotomyProvider | undefined {
  return PHLEBOTOMY_PROVIDERS.find((p) => p.slug === slug);
}

/** The providers serving a zip code. */
export function providersServing(zip: string): PhlebotomyProvider[] {
  return PHLEBOTOMY_PROVIDERS.filter((p) => p.serves(zip));
}

/**
 * Provider behaviour for tests and demos, without code changes: a JSON object
 * `{"default": {"latency_ms": 300, "failure_rate": 0}, "provider_2": {"latency_ms": 5000, "failure_rate": 0.2}}`
 * (every key optional). Read from the `settings` row `phlebotomy_provider_behaviour` when present,
 * else from the environment variable `PHLEBOTOMY_PROVIDER_BEHAVIOUR`, else the built-in default.
 * For each provider: built-in default, then `default`, then the provider's own entry.
 */
export const BEHAVIOUR_SETTING = 'phlebotomy_provider_behaviour';
export const BEHAVIOUR_ENV = 'PHLEBOTOMY_PROVIDER_BEHAVIOUR';
export const BUILTIN_BEHAVIOUR: ProviderBehaviour = { latency_ms: 300, failure_rate: 0 };

const Entry = z
  .object({ latency_ms: z.number().int().min(0).max(172_800_000).optional(), failure_rate: z.number().min(0).max(1).optional() })
  .strict();
export const BehaviourConfig = z.record(z.string(), Entry);
export type BehaviourConfig = z.infer<typeof BehaviourConfig>;

function parseConfig(raw: string | undefined): BehaviourConfig | undefined {
  if (!raw) return undefined;
  try {
    const parsed = BehaviourConfig.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Start-up check: an invalid PHLEBOTOMY_PROVIDER_BEHAVIOUR stops the service with one line naming it. */
export function assertBehaviourEnv(env: NodeJS.ProcessEnv = process.env) {
  const raw = env[BEHAVIOUR_ENV];
  if (raw && !parseConfig(raw)) {
    throw new Error(`${BEHAVIOUR_ENV} must be JSON like {"default":{"latency_ms":300,"failure_rate":0},"provider_2":{"failure_rate":0.2}}`);
  }
}

export async function providerBehaviour(db: Database<ServiceSchema>, slug: string): Promise<ProviderBehaviour> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, BEHAVIOUR_SETTING));
  const cfg = parseConfig(row?.value) ?? parseConfig(process.env[BEHAVIOUR_ENV]) ?? {};
  return { ...BUILTIN_BEHAVIOUR, ...cfg.default, ...cfg[slug] };
}

/** Stores the behaviour (validated) in the settings row; tests and demos call it. */
export async function setProviderBehaviour(db: Database<ServiceSchema>, cfg: BehaviourConfig) {
  const value = JSON.stringify(BehaviourConfig.parse(cfg));
  await db.insert(settings).values({ key: BEHAVIOUR_SETTING, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}
