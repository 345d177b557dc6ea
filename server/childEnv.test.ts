import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnvs } from './childEnv';
import { loadConfig } from './config';
import { ownerOnlyFiles } from './lib/serverProcess';
import { bffSchema } from './bff/db/schema';
import { openStore } from './store/db';
import { repoPath } from './lib/entries';

const secrets = { DEMO_API_KEY: 'lsk_demo_key_0123456789', ADMIN_EMAIL: 'admin@labdesk.local', ADMIN_PASSWORD: 'admin-password-123', SESSION_SECRET: 's'.repeat(40) };

describe('each process receives only the secrets it needs', () => {
  it('the service gets its demo key and the operator token; the BFF the session secret, the sign-in and its service key', () => {
    const parent = { PATH: '/usr/bin', SERVICE_ADMIN_TOKEN: 'operator-token-1', SESSION_SECRET: secrets.SESSION_SECRET, LOG_LEVEL: 'info' };
    const config = loadConfig({ ...parent, DATA_DIR: '/tmp/labdesk-env' });
    const { service, bff } = childEnvs(config, secrets, 'http://127.0.0.1:8787', parent);
    expect(service).toMatchObject({ DEMO_API_KEY: secrets.DEMO_API_KEY, SERVICE_ADMIN_TOKEN: 'operator-token-1', LOG_LEVEL: 'info', PATH: '/usr/bin' });
    for (const name of ['SESSION_SECRET', 'ADMIN_PASSWORD', 'SERVICE_API_KEY']) expect(service, name).not.toHaveProperty(name);
    expect(bff).toMatchObject({ SESSION_SECRET: secrets.SESSION_SECRET, ADMIN_PASSWORD: secrets.ADMIN_PASSWORD, SERVICE_API_KEY: secrets.DEMO_API_KEY, SERVICE_BASE_URL: 'http://127.0.0.1:8787' });
    for (const name of ['DEMO_API_KEY', 'SERVICE_ADMIN_TOKEN']) expect(bff, name).not.toHaveProperty(name);
  });

  it('against a remote service only the BFF starts, with the configured key and nothing of the demo team', () => {
    const parent = { SERVICE_BASE_URL: 'https://api.example.com', SERVICE_API_KEY: 'remote-key-0123456789', DEMO_API_KEY: secrets.DEMO_API_KEY };
    const config = loadConfig({ ...parent, DATA_DIR: '/tmp/labdesk-env' });
    const envs = childEnvs(config, secrets, 'https://api.example.com', parent);
    expect(envs.service).toBeUndefined();
    expect(envs.bff).toMatchObject({ SERVICE_API_KEY: 'remote-key-0123456789' });
    expect(envs.bff).not.toHaveProperty('DEMO_API_KEY');
  });
});

describe('the embedded store is its owner’s alone', () => {
  it('creates no file or folder that the group or others may read or write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-umask-'));
    try {
      ownerOnlyFiles(); // as every part does first
      const store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: repoPath('server/bff/db/migrations'), dataDir: dir });
      await store.close();
      const open: string[] = [];
      const walk = (p: string) => {
        for (const entry of fs.readdirSync(p, { withFileTypes: true })) {
          const full = path.join(p, entry.name);
          if (fs.statSync(full).mode & 0o077) open.push(full);
          if (entry.isDirectory()) walk(full);
        }
      };
      walk(dir);
      expect(open).toEqual([]);
      expect(fs.statSync(path.join(dir, 'bff')).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
