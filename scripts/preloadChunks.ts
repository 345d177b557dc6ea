/**
 * A build step (a Vite plugin): `<link rel="modulepreload">` tags in index.html for named lazy
 * chunks. Used for `views-common` (vite.config.ts), which nearly every view needs: left to the
 * views, its download began only once the shell's JavaScript had run and picked the route's view,
 * and on a cold load of the users list it was the last file to arrive, after the list's records
 * (docs/performance.md, "The dashboard"). Preloaded, it downloads beside the shell. A preload only
 * fetches and compiles the file; nothing of it runs until a view imports it.
 *
 * The tags are marked as what only a signed-in member's first page needs: the BFF leaves them out
 * of the shell it sends a browser without a session (server/bff/indexHtml.ts), whose first page is
 * the sign-in page.
 */
import type { Plugin } from 'vite';
import { SIGNED_IN_END, SIGNED_IN_START } from '../server/bff/shellMarkers.ts';

export function preloadChunks(names: readonly string[]): Plugin {
  let base = '/';
  return {
    name: 'labdesk-preload-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((file) => file.type === 'chunk' && names.includes(file.name));
        const missing = names.filter((name) => !chunks.some((chunk) => chunk.name === name));
        // A renamed group would silently stop being preloaded: fail the build instead.
        if (missing.length > 0) throw new Error(`preloadChunks: no chunk named ${missing.join(', ')} in the bundle`);
        const links = chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="${base}${chunk.fileName}">`);
        return html.replace('</head>', `  ${[SIGNED_IN_START, ...links, SIGNED_IN_END].join('\n    ')}\n  </head>`);
      },
    },
  };
}
