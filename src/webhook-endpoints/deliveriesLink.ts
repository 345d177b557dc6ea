/**
 * The address of an endpoint's page with its delivery log filtered to one status: where the
 * overview's failed-deliveries card leads. Its own file so the dashboard links here without loading the page.
 */
export const DELIVERIES_PARAM = 'deliveries';

export const deliveriesLink = (endpointId: string, status: string) =>
  `/webhook-endpoints/${encodeURIComponent(endpointId)}/show?${DELIVERIES_PARAM}=${encodeURIComponent(status)}`;
