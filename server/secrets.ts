import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { generateApiKey } from './service/domain/teams';

export interface RunSecrets {
  DEMO_API_KEY: string;
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD: string;
  SESSION_SECRET: string;
}

/**
 * Values the run contract generates when unset. They are kept in DATA_DIR/secrets.json (mode
 * 0600) so a restart reuses them: the seeded team's key and the first admin's password stay valid.
 */
export function resolveSecrets(config: Config): { secrets: RunSecrets; generated: (keyof RunSecrets)[]; file: string } {
  const file = path.join(config.dataDir, 'secrets.json');
  let saved: Partial<RunSecrets> = {};
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RunSecrets>;
  } catch {
    /* first start */
  }
  const makers: Record<keyof RunSecrets, () => string> = {
    DEMO_API_KEY: generateApiKey,
    ADMIN_EMAIL: () => 'admin@labdesk.local',
    ADMIN_PASSWORD: () => randomBytes(12).toString('base64url'),
    SESSION_SECRET: () => randomBytes(48).toString('base64url'),
  };
  const secrets = {} as RunSecrets;
  const generated: (keyof RunSecrets)[] = [];
  let changed = false;
  for (const key of Object.keys(makers) as (keyof RunSecrets)[]) {
    const fromEnv = config[key];
    if (fromEnv) {
      secrets[key] = fromEnv;
    } else if (saved[key]) {
      secrets[key] = saved[key];
      generated.push(key);
    } else {
      secrets[key] = makers[key]();
      saved[key] = secrets[key];
      generated.push(key);
      changed = true;
    }
  }
  if (changed) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(saved, null, 2), { mode: 0o600 });
  }
  return { secrets, generated, file };
}
