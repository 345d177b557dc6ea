import path from 'node:path';
import { z } from 'zod';

const WORKERS = 'must be a whole number from 1 to 64';
const port = z.coerce.number().int().min(1).max(65535);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The run contract's environment, in one place with its defaults. */
export const EnvSchema = z
  .object({
    PORT: port.default(3000),
    SERVICE_PORT: port.default(8787),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalString.pipe(
      z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
    ),
    SERVICE_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    SERVICE_API_KEY: optionalString,
    DEMO_API_KEY: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(12, 'must be at least 12 characters').optional()),
    SERVICE_ADMIN_TOKEN: optionalString.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
    SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    WEBHOOK_ALLOW_PRIVATE_URLS: optionalString.pipe(
      z
        .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
        .optional()
        .transform((v) => v === 'true' || v === '1'),
    ),
    /**
     * The BFF behind a reverse proxy: a hop count (`1`), or the proxies' addresses/CIDRs
     * (`127.0.0.1,10.0.0.0/8`). `true` means one hop: trusting every hop would take the client's
     * own (forgeable) first `X-Forwarded-For` entry, since proxies append to what the client sent.
     */
    TRUST_PROXY: optionalString.transform((v): number | string[] | undefined => {
      if (v === undefined || v === 'false' || v === '0') return undefined;
      if (v === 'true') return 1;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      return v.split(',').map((a) => a.trim()).filter(Boolean);
    }),
    /**
     * Service processes sharing SERVICE_PORT and the background work (node's cluster). Unset: one per
     * core on PostgreSQL; the embedded store is owned by one process, so there it is always 1.
     */
    SERVICE_WORKERS: optionalString.pipe(
      z.coerce.number<string>({ message: WORKERS }).int(WORKERS).min(1, WORKERS).max(64, WORKERS).optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((e) => !e.SERVICE_BASE_URL || e.SERVICE_API_KEY, {
    message: 'SERVICE_API_KEY is required when SERVICE_BASE_URL points at a remote service',
    path: ['SERVICE_API_KEY'],
  });

export type Config = z.infer<typeof EnvSchema> & { dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${first.path.join('.') || 'environment'} ${first.message}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
