/**
 * The order triage calls (docs/bff-api.md, "order triage"): claims, notes, resolutions, lost-kit
 * replacements and the bulk actions of the needs-attention list. POSTs, so httpClient adds the
 * CSRF header; failures arrive as HttpError with the BFF's `code` (claimed_by_other) in `body`.
 */
import type { BulkResult, OrderNoteRecord, OrderTriageState, ReplaceKitResult } from '../../server/bff/api';
import { httpClient } from './httpClient';
import type { LabdeskDataProvider } from './types';

const API_URL = '/api';
const orderUrl = (orderId: string, rest: string) => `${API_URL}/orders/${encodeURIComponent(orderId)}/${rest}`;

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const { json } = await httpClient(url, { method: 'POST', body: JSON.stringify(body), headers: new Headers({ 'Content-Type': 'application/json' }) });
  return json as T;
}

export const triageCalls: Pick<
  LabdeskDataProvider,
  | 'getOrderTriage'
  | 'claimOrder'
  | 'unclaimOrder'
  | 'resolveOrder'
  | 'replaceOrderKit'
  | 'getOrderNotes'
  | 'addOrderNote'
  | 'bulkClaimOrders'
  | 'bulkResolveOrders'
> = {
  async getOrderTriage(orderId) {
    const { json } = await httpClient(orderUrl(orderId, 'triage'));
    return json as OrderTriageState;
  },
  claimOrder: (orderId, force = false) => postJson<OrderTriageState>(orderUrl(orderId, 'triage/claim'), force ? { force } : {}),
  unclaimOrder: (orderId, force = false) => postJson<OrderTriageState>(orderUrl(orderId, 'triage/unclaim'), force ? { force } : {}),
  resolveOrder: (orderId, body) => postJson<OrderTriageState>(orderUrl(orderId, 'triage/resolve'), body),
  replaceOrderKit: (orderId, action, note) => postJson<ReplaceKitResult>(orderUrl(orderId, `triage/${action}`), { note }),
  async getOrderNotes(orderId) {
    const { json } = await httpClient(orderUrl(orderId, 'notes'));
    return json as OrderNoteRecord[];
  },
  addOrderNote: (orderId, body) => postJson<OrderNoteRecord>(orderUrl(orderId, 'notes'), { body }),
  bulkClaimOrders: (ids) => postJson<BulkResult>(`${API_URL}/orders/triage/bulk-claim`, { ids }),
  bulkResolveOrders: (ids, body) => postJson<BulkResult>(`${API_URL}/orders/triage/bulk-resolve`, { ids, ...body }),
};
