/**
 * A tracking number's carrier page, told by the number's shape (the service's courier name, when
 * given, breaks ties): UPS "1Z…", USPS 20–22 digits or "XX123456789US", FedEx 12 or 15 digits.
 * Only these carriers' own https pages: a number from anywhere never becomes an arbitrary link.
 */
const CARRIERS = [
  { name: 'UPS', test: /^1Z[0-9A-Z]{16}$/, url: (n: string) => `https://www.ups.com/track?tracknum=${n}` },
  { name: 'USPS', test: /^(\d{20,22}|[A-Z]{2}\d{9}US)$/, url: (n: string) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}` },
  { name: 'FedEx', test: /^(\d{12}|\d{15})$/, url: (n: string) => `https://www.fedex.com/fedextrack/?trknbrs=${n}` },
] as const;

export interface Tracking {
  number: string;
  carrier: string | null;
  url: string | null;
}

export function trackingOf(number: string, courier?: string | null): Tracking {
  const n = number.replace(/\s+/g, '').toUpperCase();
  const named = courier ? CARRIERS.find((c) => courier.toLowerCase().includes(c.name.toLowerCase())) : undefined;
  const carrier = named && named.test.test(n) ? named : CARRIERS.find((c) => c.test.test(n));
  return carrier ? { number, carrier: carrier.name, url: carrier.url(encodeURIComponent(n)) } : { number, carrier: courier ?? null, url: null };
}

/** The order's tracking numbers, outbound (kit to the patient) first. */
export function shipmentTracking(shipment: Record<string, unknown> | null | undefined): { direction: 'To patient' | 'To lab'; tracking: Tracking }[] {
  if (!shipment) return [];
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const found: { direction: 'To patient' | 'To lab'; tracking: Tracking }[] = [];
  const outbound = str(shipment.outbound_tracking_number);
  const inbound = str(shipment.inbound_tracking_number);
  if (outbound) found.push({ direction: 'To patient', tracking: trackingOf(outbound, str(shipment.outbound_courier)) });
  if (inbound) found.push({ direction: 'To lab', tracking: trackingOf(inbound, str(shipment.inbound_courier)) });
  return found;
}
