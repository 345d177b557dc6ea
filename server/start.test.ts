import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/e2e/app';
import { repoPath } from './lib/entries';

/** The command line and NODE_OPTIONS of each live process of a process group (Linux /proc). */
function groupProcesses(pgid: number): { pid: number; argv: string[]; nodeOptions: string }[] {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue; // the fifth field of stat is the process group
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      out.push({ pid: Number(entry), argv, nodeOptions: env.find((e) => e.startsWith('NODE_OPTIONS='))?.slice(13) ?? '' });
    } catch {
      // The process ended while we read it.
    }
  }
  return out;
}

const LOADER = /tsx|ts-node|--import|--loader|--experimental-loader|--require|(^|\s)-r(\s|$)/;

describe('npm start', () => {
  it.skipIf(process.platform !== 'linux')(
    'runs compiled JavaScript: the supervisor, the service, its seeding process and the BFF run bundles on plain Node, with no TypeScript loader',
    async () => {
      const start = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')).scripts.start as string;
      expect(start).toBe('node server/start.mjs');
      expect(start).not.toMatch(LOADER);

      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-start-'));
      const port = await freePort();
      let servicePort = await freePort();
      while (servicePort === port) servicePort = await freePort();
      const child = spawn(process.execPath, ['server/start.mjs'], {
        cwd: repoPath(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), SERVICE_PORT: String(servicePort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const seen = new Map<number, { argv: string[]; nodeOptions: string }>();
      try {
        const deadline = Date.now() + 280_000;
        while (!output.includes('Labdesk is running')) {
          if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
          if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
          for (const p of groupProcesses(child.pid!)) seen.set(p.pid, p);
          await new Promise((r) => setTimeout(r, 100));
        }
        for (const p of groupProcesses(child.pid!)) seen.set(p.pid, p);
      } finally {
        process.kill(-child.pid!, 'SIGTERM');
        await new Promise((r) => child.once('exit', r));
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      const nodes = [...seen.values()].filter((p) => path.basename(p.argv[0] ?? '') === 'node' || p.argv[0] === process.execPath);
      const scripts = nodes.map((p) => p.argv.slice(1).find((a) => !a.startsWith('-')) ?? '');
      for (const p of nodes) {
        expect(p.argv.slice(1).join(' '), 'a node process with a loader').not.toMatch(LOADER);
        expect(p.nodeOptions, 'NODE_OPTIONS').not.toMatch(LOADER);
        // The script is node's first argument that is not an option; options and the script's own
        // arguments (the dashboard build's `--logLevel warn`) may follow.
        const script = p.argv.slice(1).find((a) => !a.startsWith('-'));
        expect(script, 'runs JavaScript').toMatch(/\.m?js$/);
      }
      for (const part of ['server/start.mjs', '.build/service.mjs', '.build/bff.mjs', '.build/seed.mjs']) {
        expect(scripts.some((s) => s.endsWith(part)), `${part} among ${scripts.join('; ')}`).toBe(true);
      }
    },
    300_000,
  );
});
