import type { IncomingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy never passes them on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/**
 * An upstream answer's headers as a test proxy should pass them on. Forwarding the service's
 * `Keep-Alive: timeout=72` would let the client keep a connection the proxy's own server closes
 * after 5 idle seconds, and a streamed upload sent on it as it closes fails (it cannot be retried).
 */
export function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}
