/**
 * What the build marks in index.html as needed only by a signed-in member's first page
 * (scripts/preloadChunks.ts), and the BFF leaves out for a browser without a session
 * (server/bff/indexHtml.ts). No imports: the build's Vite config loads this file.
 */
export const SIGNED_IN_START = '<!--labdesk:signed-in-->';
export const SIGNED_IN_END = '<!--/labdesk:signed-in-->';
