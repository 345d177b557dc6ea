import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { serviceSchema } from '../../server/service/db/schema';
import { openStore } from '../../server/store/db';
import { DirLockedError } from '../../server/store/lock';
import { ADMIN_TOKEN, migrationsFolder } from './harness';

/** The embedded store on disk is single-process: a lock file names the process that holds it. */
describe('data directory lock (pglite on disk)', () => {
  let dataDir: string;
  let partDir: string;
  let lockFile: string;
  let holder: ChildProcess | undefined;
  let keyOnDisk = '';

  const open = () => openStore({ part: 'service', schema: serviceSchema, migrationsFolder, dataDir });

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-lock-'));
    partDir = path.join(dataDir, 'service');
    lockFile = path.join(partDir, 'labdesk.lock');
    fs.mkdirSync(partDir, { recursive: true });
  });

  afterAll(() => {
    if (holder?.pid && holder.exitCode === null) holder.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a directory held by a live process, naming the directory and the process', async () => {
    holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = holder.pid!;
    expect(pid).toBeGreaterThan(0);
    fs.writeFileSync(lockFile, String(pid));

    const err = await open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DirLockedError);
    const message = (err as Error).message;
    expect(message).toContain(partDir);
    expect(message).toContain(String(pid));
    expect(message).toMatch(/in use/);
    expect(message).toMatch(/DATA_DIR/);
    // The holder's lock is left alone.
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(pid));

    const exited = new Promise((resolve) => holder!.once('exit', resolve));
    holder.kill('SIGTERM');
    await exited;
  });

  it('takes over a stale lock whose process is gone, serves, and releases the lock on close', async () => {
    // A process that has exited: its pid no longer runs.
    const gone = spawnSync(process.execPath, ['-e', '']);
    expect(gone.pid).toBeGreaterThan(0);
    fs.writeFileSync(lockFile, String(gone.pid));

    const store = await open();
    try {
      expect(store.kind).toBe('pglite');
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));

      // A second open of the same directory in this very process is refused too.
      const second = await open().then(
        () => null,
        (e: unknown) => e,
      );
      expect(second).toBeInstanceOf(DirLockedError);
      expect((second as Error).message).toContain(partDir);
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));

      // The store works: a team created over HTTP can list its (no) users.
      const app = await buildServiceApp({ db: store.db, adminToken: ADMIN_TOKEN });
      try {
        const team = await app.inject({ method: 'POST', url: '/admin/v1/teams', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name: 'On disk' } });
        expect(team.statusCode).toBe(201);
        keyOnDisk = team.json().api_key;
        const list = await app.inject({ method: 'GET', url: '/v2/user', headers: { 'x-service-api-key': team.json().api_key } });
        expect(list.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('takes over an unreadable lock file, and the data is still there', async () => {
    fs.writeFileSync(lockFile, 'not a pid');
    const store = await open();
    try {
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      const app = await buildServiceApp({ db: store.db, adminToken: ADMIN_TOKEN });
      try {
        // The team created before the restart is still stored: its key still works.
        expect(keyOnDisk).not.toBe('');
        const r = await app.inject({ method: 'GET', url: '/v2/user', headers: { 'x-service-api-key': keyOnDisk } });
        expect(r.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
