import { describe, expect, it } from 'vitest';
import { shipmentTracking, trackingOf } from './tracking';

describe('tracking links', () => {
  it('tells UPS, USPS and FedEx numbers by shape', () => {
    expect(trackingOf('1Z999AA10123456784')).toMatchObject({ carrier: 'UPS', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' });
    expect(trackingOf('9400 1118 9922 3344 5566 77')).toMatchObject({ carrier: 'USPS', url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223344556677' });
    expect(trackingOf('EC123456789US').carrier).toBe('USPS');
    expect(trackingOf('712345678901')).toMatchObject({ carrier: 'FedEx', url: 'https://www.fedex.com/fedextrack/?trknbrs=712345678901' });
  });

  it('leaves a number of no known shape as text, never a link built from it', () => {
    expect(trackingOf('javascript:alert(1)', 'ups')).toEqual({ number: 'javascript:alert(1)', carrier: 'ups', url: null });
    expect(trackingOf('ABC-42', 'DHL')).toMatchObject({ carrier: 'DHL', url: null });
  });

  it('lists the kit’s way out before its way back', () => {
    const found = shipmentTracking({ outbound_tracking_number: '9400111899223344556677', inbound_tracking_number: '712345678901', inbound_courier: 'fedex' });
    expect(found.map((f) => [f.direction, f.tracking.carrier])).toEqual([
      ['To patient', 'USPS'],
      ['To lab', 'FedEx'],
    ]);
    expect(shipmentTracking(null)).toEqual([]);
  });
});
