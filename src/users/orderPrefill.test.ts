import { describe, expect, it } from 'vitest';
import { orderPrefill } from './orderPrefill';

describe('orderPrefill', () => {
  it('starts from the user id alone when the patient has no order', () => {
    expect(orderPrefill('u-1', undefined)).toEqual({ user_id: 'u-1' });
    expect(orderPrefill('u-1', null)).toEqual({ user_id: 'u-1' });
  });

  it('copies the patient details and the address with its access notes, not what belongs to one order', () => {
    const values = orderPrefill('u-1', {
      patient_details: {
        first_name: 'Ana',
        last_name: 'Lima',
        dob: '1984-02-29T00:00:00.000Z',
        gender: 'female',
        phone_number: '+14155550134',
        email: 'ana@example.com',
        household_size: 3,
      },
      patient_address: {
        first_line: '1 Main St',
        second_line: null,
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        country: 'US',
        access_notes: 'Gate code 1234',
      },
      // Extra fields of the record (tests, notes) are not part of the prefill.
      ...({ lab_test_id: 'lt-1', clinical_notes: 'fasting' } as object),
    });
    expect(values).toEqual({
      user_id: 'u-1',
      patient_details: { first_name: 'Ana', last_name: 'Lima', dob: '1984-02-29', gender: 'female', phone_number: '+14155550134', email: 'ana@example.com' },
      patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', access_notes: 'Gate code 1234' },
    });
  });

  it('leaves out blank and missing values so the form asks for them', () => {
    expect(orderPrefill('u-2', { patient_details: { first_name: ' ', last_name: 'Roe' }, patient_address: null })).toEqual({
      user_id: 'u-2',
      patient_details: { last_name: 'Roe' },
    });
  });
});
