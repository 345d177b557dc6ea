import { describe, expect, it } from 'vitest';
import type { Order } from '../../contract';
import { BffError } from '../errors';
import { replacementBody } from './replaceKit';

/** A lost kit as the service answers it (only the fields the replacement reads). */
const lostKit = (over: Partial<Order> = {}): Order =>
  ({
    id: '6f1c2a52-8f0e-4c59-9a57-1f3a4e2b9c10',
    user_id: '0b7d7a2e-3c1f-4a8e-9d55-2e6f8a1c4b20',
    status: 'failed',
    lab_account_id: '9a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c80',
    lab_test: { id: '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f50', method: 'testkit' },
    patient_details: { first_name: 'Priya', last_name: 'Silva', dob: '1999-09-25', gender: 'female', phone_number: '+15125550146', email: 'priya@example.com' },
    patient_address: { receiver_name: 'Priya Silva', first_line: '2424 Lakeview Ter', city: 'Austin', state: 'TX', zip: '78704', country: 'US' },
    billing_type: 'client_bill',
    icd_codes: ['Z00.00'],
    ...over,
  }) as unknown as Order;

describe('replacementBody', () => {
  it('reships under the same lab account, with the same patient, test and diagnosis', () => {
    const body = replacementBody(lostKit(), 'reship');
    expect(body).toMatchObject({ lab_account_id: lostKit().lab_account_id, lab_test_id: lostKit().lab_test.id, icd_codes: ['Z00.00'] });
    expect(body.patient_address.zip).toBe('78704');
    expect(body.update_reason ?? null).toBeNull();
  });

  it('recreates an open order as its INCORRECT_LAB replacement, a final one as a plain new order', () => {
    const open = lostKit({ status: 'collecting_sample' } as Partial<Order>);
    expect(replacementBody(open, 'recreate')).toMatchObject({ update_reason: 'INCORRECT_LAB', original_order_id: open.id });
    expect(replacementBody(lostKit(), 'recreate').update_reason ?? null).toBeNull();
  });

  it('refuses, naming the fields, an order whose details a new order could not carry', () => {
    const incomplete = lostKit({ patient_details: { first_name: 'Priya', last_name: 'Silva' } } as Partial<Order>);
    let refusal: unknown;
    try {
      replacementBody(incomplete, 'reship');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(BffError);
    expect((refusal as BffError).statusCode).toBe(409);
    expect((refusal as BffError).message).toMatch(/patient_details\.dob.*patient_details\.gender.*Place a new order from the form/);
  });
});
