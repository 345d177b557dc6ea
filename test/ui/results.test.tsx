/**
 * Lab results on the real stack: the order page's Results card (values, flags, range bars, missing
 * results, partial vs final, the PDF link, the critical banner and its acknowledgement), the orders
 * list's "Critical results" tab, and the patient's Biomarkers tab merging an order's glucose in
 * mg/dL with an uploaded report's glucose in mmol/L.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { labTestId, type WireOrder } from '../bff/ordersFixture';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';
import { patient } from './seed/orders';
import { clean, readReport } from './seed/parser';

let stack: RealStack;
let userId: string;
const o = {} as Record<'critical' | 'partial' | 'pending' | 'missing', WireOrder>;
const WELLNESS = labTestId('quest', 'Annual Wellness');
const KIT = labTestId('quest', 'Thyroid Check');
const ADA = patient('Ada', 'Lovelace', '1980-04-02');

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  const { team } = service;
  [userId] = (await service.addUsers(team, [{ clientUserId: 'pt-results-ui', fallbackTimeZone: 'America/Chicago' }])) as [string];
  const drive = async (order: WireOrder, status: string, body: Record<string, unknown>) => {
    const r = await service.call(team, 'POST', `/v3/order/${order.id}/test?final_status=${status}`, body);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  };
  o.critical = await service.placeOrder(team, userId, { lab_test_id: WELLNESS, patient_details: ADA });
  o.partial = await service.placeOrder(team, userId, { lab_test_id: WELLNESS, patient_details: ADA });
  o.pending = await service.placeOrder(team, userId, { lab_test_id: KIT, patient_details: ADA });
  o.missing = await service.placeOrder(team, userId, { lab_test_id: KIT, patient_details: ADA });
  await drive(o.critical, 'completed.walk_in_test.completed', { interpretation: 'critical', has_missing_results: false });
  await drive(o.partial, 'sample_with_lab.walk_in_test.partial_results', { interpretation: 'normal' });
  await drive(o.missing, 'completed.testkit.completed', { interpretation: 'abnormal', has_missing_results: true });
  // A report of the same patient, in SI units: glucose 5.5 mmol/L (99 mg/dL).
  const report = clean();
  if (report.ok) {
    report.data.metadata = { ...report.data.metadata, date_collected: '2026-01-15' };
    report.data.results = [
      {
        test_name: 'Glucose',
        value: '5.5',
        type: 'numeric',
        units: 'mmol/L',
        min_reference_range: 3.9,
        max_reference_range: 5.5,
        interpretation: 'normal',
        loinc_matches: [{ loinc_code: '2345-7', loinc_name: 'Glucose [Mass/volume] in Serum or Plasma', display_name: 'Glucose', confidence_score: 0.98 }],
      },
    ];
  }
  await readReport(service, team, userId, {}, report);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.useBffApp(null);
  stack.reset();
});

const resultsCard = async () => screen.findByRole('region', { name: 'Results' });

describe('the order page’s Results card', () => {
  it('shows every value with its flag and range, the critical value in a banner, and lets a coordinator acknowledge it', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${o.critical.id}/show`);
    const card = await resultsCard();
    const banner = await within(card).findByRole('alert', { name: 'Critical result' });
    expect(banner).toHaveTextContent(/Critical value: /);
    expect(banner).toHaveTextContent(/Not acknowledged yet/);
    const rows = within(card).getAllByTestId('result-row');
    expect(rows.length).toBeGreaterThan(20);
    // A critical row carries the HH or LL flag; its range is shown as the lab printed it.
    const flagged = rows.filter((r) => within(r).queryByLabelText(/Critical (high|low)/));
    expect(flagged).toHaveLength(1);
    expect(within(card).getByRole('link', { name: /Result report \(PDF\)/ })).toHaveAttribute('href', `/api/orders/${o.critical.id}/results.pdf`);
    expect(within(card).getByText('Comprehensive Metabolic Panel')).toBeInTheDocument();

    await user.click(within(banner).getByRole('button', { name: 'Acknowledge' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge the critical result' });
    await fill(user, within(dialog).getByLabelText(/What was done/), 'Called Dr. Hopper');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    const done = await within(card).findByRole('status', { name: 'Critical result acknowledged' });
    expect(done).toHaveTextContent(/Acknowledged by Test coordinator/);
    expect(done).toHaveTextContent('Called Dr. Hopper');
    const posted = stack.requests.find((r) => r.method === 'POST' && r.path === `/api/orders/${o.critical.id}/critical-acknowledgement`);
    expect(posted).toBeDefined();
  });

  it('says partial results are partial', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/orders/${o.partial.id}/show`);
    const card = await resultsCard();
    expect(await within(card).findByText(/Partial results: the lab is still working/)).toBeInTheDocument();
    expect(within(card).getAllByTestId('result-row').length).toBeGreaterThan(0);
  });

  it('shows a partial report closed by a cancellation as final, with the tests not performed and why', async () => {
    const { service } = stack;
    const order = await service.placeOrder(service.team, userId, { lab_test_id: WELLNESS, patient_details: ADA });
    await service.call(service.team, 'POST', `/v3/order/${order.id}/test?final_status=sample_with_lab.walk_in_test.partial_results`, { interpretation: 'normal' });
    expect((await service.call(service.team, 'POST', `/v3/order/${order.id}/cancel`, {})).status).toBe(200);
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/orders/${order.id}/show`);
    const card = await resultsCard();
    const missing = await within(card).findByRole('region', { name: 'Results not reported' });
    expect(missing).toHaveTextContent(/the order was cancelled before this test was performed/);
    expect(within(card).queryByText(/Partial results/)).toBeNull();
  });

  it('says when results come for an order the lab has not reported on', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/orders/${o.pending.id}/show`);
    const empty = await resultsCard();
    expect(await within(empty).findByText(/No results yet\. They arrive once the lab has tested the sample/)).toBeInTheDocument();
  });

  it('lists results the lab could not produce, with the reason in words; lab operations cannot acknowledge', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/orders/${o.missing.id}/show`);
    const card = await resultsCard();
    const missing = await within(card).findByRole('region', { name: 'Results not reported' });
    expect(missing).toHaveTextContent(/(Not enough specimen|Specimen condition|Could not be calculated)/);
    expect(within(card).getAllByTestId('result-row').some((r) => within(r).queryByLabelText(/^(High|Low)$/))).toBe(true);
  });
});

describe('the orders list', () => {
  it('has a "Critical results" tab of critical values nobody has acknowledged', async () => {
    const { service } = stack;
    const fresh = await service.placeOrder(service.team, userId, { lab_test_id: WELLNESS, patient_details: patient('Grace', 'Hopper', '1906-12-09') });
    await service.call(service.team, 'POST', `/v3/order/${fresh.id}/test?final_status=completed.walk_in_test.completed`, { interpretation: 'critical' });
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/orders');
    await screen.findByText('Grace Hopper');
    await user.click(screen.getByRole('tab', { name: /Critical results/ }));
    await waitFor(() => {
      expect(screen.queryAllByText('Ada Lovelace')).toHaveLength(0);
      expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    });
    const call = stack.requests.filter((r) => r.path === '/api/orders').at(-1)!;
    expect(JSON.parse(call.query.get('filter')!)).toEqual({ critical_unacknowledged: true });
    // "Needs attention" holds the unacknowledged critical value too, with its Results chip.
    await user.click(screen.getByRole('tab', { name: /Needs attention/ }));
    await waitFor(() => expect(JSON.parse(stack.requests.filter((r) => r.path === '/api/orders').at(-1)!.query.get('filter')!)).toEqual({ needs_attention: true }));
    const row = (await screen.findByText('Grace Hopper')).closest('tr')!;
    expect(within(row).getByText('critical')).toBeInTheDocument();
  });
});

describe('the patient’s Biomarkers tab', () => {
  it('lists the latest value of each analyte and charts one across orders and an uploaded report, in one unit', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/users/${userId}/show/biomarkers`);
    const table = await screen.findByRole('table', { name: 'Biomarkers' });
    const glucose = within(table).getByRole('row', { name: 'Glucose' });
    // Three values: the two completed wellness orders' and the report's (the partial order's CMP may add one more).
    expect(Number(within(glucose).getAllByRole('cell').at(-1)!.textContent)).toBeGreaterThanOrEqual(2);
    await user.click(glucose);
    const chart = await screen.findByRole('region', { name: 'Biomarker chart' });
    expect(await within(chart).findByText(/Glucose \(mg\/dL\)/)).toBeInTheDocument();
    expect(await within(chart).findByText(/5\.5 mmol\/L \(Uploaded report/)).toBeInTheDocument();
    expect(within(chart).getByText(/mg\/dL \(Lab order/)).toBeInTheDocument();
    expect(within(chart).getByText(/Times in the patient's time zone \(America\/Chicago\)/)).toBeInTheDocument();
  });

  it('is not offered to a role without results', async () => {
    await stack.signInAs('reviewer');
    renderOnStack(stack, `/users/${userId}/show`);
    await waitFor(() => expect(stack.requests.length).toBeGreaterThan(0));
    expect(screen.queryByRole('tab', { name: 'Biomarkers' })).not.toBeInTheDocument();
  });
});
