/**
 * Walk-in and on-site collection from the order page, on the real stack: a coordinator books a
 * visit at the nearest patient service center (its slots in the center's zone, Chicago), and lab
 * operations mark an on-site order's draw completed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { placeOnSiteOrder, placeWalkInOrder, WALK_IN } from '../bff/walkInFixture';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';

let stack: RealStack;
let patientId: string;

beforeAll(async () => {
  stack = await startRealStack();
  [patientId] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-walkin-ui' }])) as [string];
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.reset();
});

describe('walk-in and on-site collection', () => {
  it('books a visit at the nearest center from the order page, at a time shown in the center’s zone', async () => {
    const order = await placeWalkInOrder(stack.service, stack.service.team, patientId);
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${order.id}/show`);
    const section = await screen.findByRole('region', { name: 'Walk-in visit' });
    const list = await within(section).findByRole('list', { name: 'Nearest centers' });
    const centers = within(list).getAllByRole('button');
    expect(centers.length).toBeGreaterThanOrEqual(2);
    const miles = centers.map((c) => Number(/· ([\d.]+) mi ·/.exec(c.textContent ?? '')![1]));
    expect([...miles].sort((a, b) => a - b)).toEqual(miles);
    expect(centers[0]!.textContent).toMatch(/Open now|Closed now/);
    expect(centers[0]!.textContent).toMatch(/Today (\d\d:\d\d–\d\d:\d\d|Closed today) C[SD]T/);
    const nearest = centers[0]!.getAttribute('aria-label')!;

    await user.click(centers[0]!);
    const slots = await within(section).findByRole('region', { name: `Slots at ${nearest}` });
    expect(within(slots).getByText(/Times at the center \(C[SD]T, America\/Chicago\)/)).toBeInTheDocument();
    const times = within(slots).getByRole('group', { name: 'Times' });
    const first = within(times).getAllByRole('button')[0]!;
    const label = first.textContent!;
    await user.click(first);
    await user.click(within(slots).getByRole('button', { name: new RegExp(`^Book .*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }));

    const booked = await within(section).findByRole('region', { name: 'Booked visit' });
    expect(within(booked).getByText(nearest)).toBeInTheDocument();
    expect(within(booked).getByText('Confirmed')).toBeInTheDocument();
    expect(within(booked).getByText(new RegExp(`${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} C[SD]T`))).toBeInTheDocument();
    expect(within(booked).getByRole('button', { name: 'Reschedule' })).toBeInTheDocument();
    const visit = await stack.service.call<{ type: string; status: string }>(stack.service.team, 'GET', `/v3/order/${order.id}/psc/appointment`);
    expect(visit.body).toMatchObject({ type: 'patient_service_center', status: 'confirmed' });

    // The appointments list has the visit too; its row opens the order, where the visit is managed.
    window.location.hash = '#/appointments';
    const row = (await screen.findByText(`Order ${order.id.slice(0, 8)}`)).closest('tr')!;
    await user.click(within(row).getByText('Confirmed'));
    await waitFor(() => expect(window.location.hash).toBe(`#/orders/${order.id}/show`));
  });

  it('moves a booked visit to another center, then cancels it with a reason, from the order page', async () => {
    const order = await placeWalkInOrder(stack.service, stack.service.team, patientId);
    // Booking from the page is the test above; here the visit is booked through the service.
    const offer = await stack.service.call<{ slots: { slots: { booking_key: string }[]; location?: { code: string } }[] }>(
      stack.service.team,
      'POST',
      '/v3/order/psc/appointment/availability?lab=quest&zip_code=60601&radius=25',
    );
    const firstDay = offer.body.slots.find((d) => d.slots.length > 0)!;
    const booked = await stack.service.call(stack.service.team, 'POST', `/v3/order/${order.id}/psc/appointment/book`, { booking_key: firstDay.slots[0]!.booking_key });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);

    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${order.id}/show`);
    const section = await screen.findByRole('region', { name: 'Walk-in visit' });
    const visit = await within(section).findByRole('region', { name: 'Booked visit' });
    await user.click(within(visit).getByRole('button', { name: 'Reschedule' }));
    const list = await within(section).findByRole('list', { name: 'Nearest centers' });
    // The booked center is marked in the list; move to another one.
    const [here] = within(list).getAllByRole('button').filter((c) => c.textContent!.includes('Current visit'));
    expect(within(visit).getByText(here!.getAttribute('aria-label')!)).toBeInTheDocument();
    const other = within(list)
      .getAllByRole('button')
      .find((c) => c !== here)!;
    const otherName = other.getAttribute('aria-label')!;
    await user.click(other);
    const slots = await within(section).findByRole('region', { name: `Slots at ${otherName}` });
    await user.click(within(within(slots).getByRole('group', { name: 'Times' })).getAllByRole('button')[0]!);
    await user.click(within(slots).getByRole('button', { name: /^Move to / }));
    // Moved: the visit names the other center and the picker is gone.
    await waitFor(() => expect(within(within(section).getByRole('region', { name: 'Booked visit' })).getByText(otherName)).toBeInTheDocument());
    expect(within(section).queryByRole('list', { name: 'Nearest centers' })).not.toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Cancel visit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the walk-in visit' });
    await user.click(await within(dialog).findByRole('combobox', { name: /Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Patient wants another time' }));
    await fill(user, within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'will call back');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel visit' }));
    await within(section).findByText('Last visit (cancelled)');

    const held = await stack.service.call<{ status: string; event_data: { site_code: string }; events: { status: string; data?: Record<string, unknown> }[] }>(
      stack.service.team,
      'GET',
      `/v3/order/${order.id}/psc/appointment`,
    );
    expect(held.body.status).toBe('cancelled');
    expect(held.body.event_data.site_code).not.toBe(firstDay.location?.code);
    expect(held.body.events.find((e) => e.status === 'cancelled')?.data).toMatchObject({ reason_id: 'patient_rescheduling', notes: 'will call back' });
  });

  it('offers a larger radius when no center is near the patient, then lists the centers found', async () => {
    // Milwaukee: the nearest Quest center (Chicago) is some 78 miles away.
    const order = await stack.service.placeOrder(stack.service.team, patientId, {
      lab_test_id: WALK_IN,
      patient_address: { first_line: '789 N Water St', city: 'Milwaukee', state: 'WI', zip: '53202', country: 'US' },
    });
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${order.id}/show`);
    const section = await screen.findByRole('region', { name: 'Walk-in visit' });
    expect(await within(section).findByText(/No quest center within 25 miles of the patient's address/)).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Search within 50 miles' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Search within 100 miles' }));
    const list = await within(section).findByRole('list', { name: 'Nearest centers' });
    expect(within(section).getByText("Within 100 miles of the patient's address, nearest first")).toBeInTheDocument();
    const miles = within(list)
      .getAllByRole('button')
      .map((c) => Number(/· ([\d.]+) mi ·/.exec(c.textContent ?? '')![1]));
    expect(miles.every((m) => m > 25 && m <= 100)).toBe(true);
  });

  it('lets lab operations mark an on-site order’s draw completed after confirming', async () => {
    const order = await placeOnSiteOrder(stack.service, stack.service.team, patientId);
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, `/orders/${order.id}/show`);
    const section = await screen.findByRole('region', { name: 'On-site draw' });
    await user.click(within(section).getByRole('button', { name: 'Mark draw completed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the draw completed?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm draw completed' }));
    await waitFor(() => expect(within(section).getByText(/No draw to mark: the order is sample_with_lab \(draw_completed\)/)).toBeInTheDocument());
    const after = await stack.service.call<{ status: string; low_level_status: string }>(stack.service.team, 'GET', `/v3/order/${order.id}`);
    expect(after.body).toMatchObject({ status: 'sample_with_lab', low_level_status: 'draw_completed' });
  });
});
