// The esbuild options every server bundle shares: `npm start`'s build of the supervisor
// (server/start.mjs) and the supervisor's build of each part (server/build.ts). Plain JavaScript,
// so that start.mjs can import it before anything is built; its type is in esbuildOptions.d.mts.

/** A bundle for plain Node: ESM, packages left outside (they load from node_modules), names kept. */
export const NODE_BUNDLE = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: true,
  logLevel: 'warning',
});
