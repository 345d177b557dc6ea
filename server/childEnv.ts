import type { Config } from './config';
import type { RunSecrets } from './secrets';

/** Every variable that holds a secret: none goes to a part unless that part needs it. */
const SECRET_VARIABLES = ['DEMO_API_KEY', 'SERVICE_ADMIN_TOKEN', 'SESSION_SECRET', 'ADMIN_PASSWORD', 'SERVICE_API_KEY'] as const;

export interface ChildEnvs {
  /** Absent when the BFF talks to a remote service (SERVICE_BASE_URL). */
  service?: NodeJS.ProcessEnv;
  bff: NodeJS.ProcessEnv;
}

/**
 * Each process receives only the secrets it needs: the service its demo team's key (to seed it)
 * and the operator token; the BFF the session secret, the first admin's sign-in and the key it
 * calls the service with. A part that is compromised, or that dumps its environment, gives away
 * only its own.
 */
export function childEnvs(config: Config, secrets: RunSecrets, serviceUrl: string, parent: NodeJS.ProcessEnv = process.env): ChildEnvs {
  const shared: NodeJS.ProcessEnv = { ...parent, DATA_DIR: config.dataDir };
  for (const name of SECRET_VARIABLES) delete shared[name];
  const only = (values: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));

  const bff = {
    ...shared,
    ...only({
      SESSION_SECRET: secrets.SESSION_SECRET,
      ADMIN_EMAIL: secrets.ADMIN_EMAIL,
      ADMIN_PASSWORD: secrets.ADMIN_PASSWORD,
      SERVICE_BASE_URL: serviceUrl,
      SERVICE_API_KEY: config.SERVICE_BASE_URL ? config.SERVICE_API_KEY : secrets.DEMO_API_KEY,
    }),
  };
  if (config.SERVICE_BASE_URL) return { bff };
  const service = { ...shared, ...only({ DEMO_API_KEY: secrets.DEMO_API_KEY, SERVICE_ADMIN_TOKEN: config.SERVICE_ADMIN_TOKEN }) };
  return { service, bff };
}
