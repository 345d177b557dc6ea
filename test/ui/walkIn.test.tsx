/**
 * Walk-in and on-site collection from the order page, on the real stack: a coordinator books a
 * visit at the nearest patient service center (its slots in the center's zone, Chicago), and lab
 * operations mark an on-site order's draw completed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { placeOnSiteOrder, placeWalkInOrder } from '../bff/walkInFixture';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';

let stack: RealStack;
let patientId: string;

beforeAll(async () => {
  stack = await startRealStack();
  [patientId] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-walkin-ui' }])) as [string];
}, 90_000);
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
