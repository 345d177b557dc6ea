/**
 * The app shell (index.html) in two versions. The build marks what only a signed-in member's first
 * page needs (scripts/preloadChunks.ts: the preload of the views' shared file); a browser without a
 * session cookie is on its way to the sign-in page and gets the shell without it, so the sign-in
 * page downloads only its own JavaScript. Whether the cookie is still valid does not matter here:
 * a stale one costs one unused download, and the shell holds nothing private either way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './auth/plugin';
import { SIGNED_IN_END, SIGNED_IN_START } from './shellMarkers';

export interface IndexPages {
  signedIn: string;
  signedOut: string;
}

export function indexPages(html: string): IndexPages {
  const blocks = new RegExp(`${SIGNED_IN_START}[\\s\\S]*?${SIGNED_IN_END}\\s*`, 'g');
  return {
    signedIn: html.replaceAll(SIGNED_IN_START, '').replaceAll(SIGNED_IN_END, ''),
    signedOut: html.replace(blocks, ''),
  };
}

const hasSessionCookie = (req: FastifyRequest) => Boolean(req.cookies?.[SESSION_COOKIE] || req.cookies?.[SECURE_SESSION_COOKIE]);

export function sendIndex(pages: IndexPages, req: FastifyRequest, reply: FastifyReply) {
  return reply
    .type('text/html')
    .header('cache-control', 'no-cache')
    .header('vary', 'Cookie')
    .send(hasSessionCookie(req) ? pages.signedIn : pages.signedOut);
}
