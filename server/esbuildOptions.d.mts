import type { BuildOptions } from 'esbuild';

/** See esbuildOptions.mjs. */
export declare const NODE_BUNDLE: Readonly<BuildOptions>;
