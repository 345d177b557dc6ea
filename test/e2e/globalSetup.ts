/**
 * One running app for the whole end-to-end run: starting it (and seeding the demo team) takes
 * ~20 s, so the flows share it instead of each starting their own. Each flow reads the service's
 * own view of the data it needs at its start, so the order the files run in does not matter.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt, startApp, type AppCredentials } from './app';

export interface SharedApp {
  dashboardUrl: string;
  serviceUrl: string;
  credentials: AppCredentials;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eApp: SharedApp;
  }
}

export default async function setup(project: TestProject) {
  ensureDashboardBuilt();
  const credentials: AppCredentials = {
    adminEmail: 'e2e.admin@labdesk.test',
    adminPassword: `E2e-${randomBytes(12).toString('base64url')}`,
    demoApiKey: `e2e_demo_${randomBytes(24).toString('hex')}`,
    sessionSecret: randomBytes(48).toString('base64url'),
  };
  const app = await startApp(credentials, 180_000);
  console.info(`e2e: app up at ${app.dashboardUrl} (service ${app.serviceUrl})`);
  project.provide('e2eApp', { dashboardUrl: app.dashboardUrl, serviceUrl: app.serviceUrl, credentials });
  return async () => {
    await app.stop();
  };
}
