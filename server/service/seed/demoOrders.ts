import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Random } from '../../lib/random';
import type { Database } from '../../store/db';
import { labAccounts, labs, labTests, orderEvents, orders, teams, users, type ServiceSchema } from '../db/schema';
import { releaseResults } from '../domain/results/produce';
import { planSteps } from '../domain/orders/simulate';
import { FINAL_TOPS, orderStatus, type Step, type Top } from '../domain/orders/statuses';
import { seedDemoAppointment } from './demoAppointments';

/**
 * Demo orders: about forty orders of the demo team's users, across collection methods and statuses,
 * with event histories over the last weeks, including parcels stuck in transit and a few failures.
 * Patients are made up (random first and last names, 555-01xx phone numbers, example.com e-mails).
 */

type Db = Database<ServiceSchema>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DemoOrdersOptions {
  now?: Date;
  /** Orders to aim for; the scenarios that show problems and failures are always included. */
  count?: number;
}

interface Scenario {
  method: string;
  target: Step;
  /** A regular's past draw: this patient, ended this many days ago (beyond the usual six weeks), of a test of this name when there is one. */
  history?: { userId: string; endedDaysAgo: number; testName: string };
}

/** Regulars with a history of draws, and how long ago each of their past visits was (days). */
const HISTORY_PATIENTS = 3;
const HISTORY_VISITS_DAYS_AGO = [330, 215, 100];
const HISTORY_TEST = 'Annual Wellness';

const sc = (method: string, top: Top, low: string, times = 1): Scenario[] => Array.from({ length: times }, () => ({ method, target: { top, low } }));

/** The scenarios per collection method: what a lab operations person sees on a normal day. */
const SCENARIOS: Record<string, Scenario[]> = {
  testkit: [
    ...sc('testkit', 'completed', 'completed', 5),
    ...sc('testkit', 'collecting_sample', 'problem_in_transit_customer', 3),
    ...sc('testkit', 'collecting_sample', 'problem_in_transit_lab', 3),
    ...sc('testkit', 'failed', 'failure_to_deliver_to_customer'),
    ...sc('testkit', 'failed', 'lost'),
    ...sc('testkit', 'failed', 'failure_to_deliver_to_lab'),
    ...sc('testkit', 'received', 'requisition_created'),
    ...sc('testkit', 'collecting_sample', 'transit_customer'),
    ...sc('testkit', 'collecting_sample', 'out_for_delivery'),
    ...sc('testkit', 'collecting_sample', 'with_customer', 2),
    ...sc('testkit', 'collecting_sample', 'transit_lab', 2),
    ...sc('testkit', 'sample_with_lab', 'delivered_to_lab'),
    ...sc('testkit', 'cancelled', 'cancelled'),
  ],
  walk_in_test: [
    ...sc('walk_in_test', 'completed', 'completed', 4),
    ...sc('walk_in_test', 'collecting_sample', 'appointment_pending', 3),
    ...sc('walk_in_test', 'sample_with_lab', 'partial_results'),
    ...sc('walk_in_test', 'failed', 'sample_error'),
    ...sc('walk_in_test', 'cancelled', 'cancelled'),
  ],
  at_home_phlebotomy: [
    ...sc('at_home_phlebotomy', 'completed', 'completed', 3),
    ...sc('at_home_phlebotomy', 'collecting_sample', 'appointment_pending', 2),
    ...sc('at_home_phlebotomy', 'failed', 'sample_error'),
  ],
  on_site_collection: [
    ...sc('on_site_collection', 'completed', 'completed', 2),
    ...sc('on_site_collection', 'received', 'requisition_created', 2),
    ...sc('on_site_collection', 'sample_with_lab', 'partial_results'),
  ],
};

/** Extra orders when the catalogue offers few methods: mostly completed, some waiting. */
const FILLERS: Record<string, Step[]> = {
  testkit: [{ top: 'completed', low: 'completed' }, { top: 'collecting_sample', low: 'with_customer' }],
  walk_in_test: [{ top: 'completed', low: 'completed' }, { top: 'collecting_sample', low: 'appointment_pending' }],
  at_home_phlebotomy: [{ top: 'completed', low: 'completed' }, { top: 'collecting_sample', low: 'appointment_pending' }],
  on_site_collection: [{ top: 'completed', low: 'completed' }, { top: 'received', low: 'requisition_created' }],
};

/** How long each step takes to happen after the previous one, in hours [min, max], by the status reached. */
const STEP_HOURS: Record<string, [number, number]> = {
  requisition_created: [0.02, 0.5],
  requisition_bypassed: [0.02, 0.5],
  transit_customer: [3, 20],
  out_for_delivery: [24, 60],
  with_customer: [2, 10],
  transit_lab: [12, 96],
  problem_in_transit_customer: [20, 48],
  problem_in_transit_lab: [24, 72],
  delivered_to_lab: [24, 72],
  appointment_pending: [0.02, 0.5],
  appointment_scheduled: [2, 48],
  draw_completed: [24, 120],
  partial_results: [12, 48],
  completed: [24, 96],
  failure_to_deliver_to_customer: [48, 120],
  failure_to_deliver_to_lab: [72, 144],
  lost: [96, 168],
  sample_error: [24, 72],
  cancelled: [2, 72],
};

const FIRST_NAMES = [
  'Avery', 'Jordan', 'Priya', 'Mateo', 'Hannah', 'Kwame', 'Sofia', 'Liam', 'Mei', 'Diego', 'Amara', 'Noah', 'Leila', 'Ethan',
  'Yuki', 'Grace', 'Omar', 'Chloe', 'Ravi', 'Isabel', 'Tomas', 'Nadia', 'Caleb', 'Ingrid', 'Malik', 'Rosa', 'Felix', 'Zara',
];
const LAST_NAMES = [
  'Okafor', 'Lindqvist', 'Ramirez', 'Chen', 'Patel', 'Novak', 'Haddad', 'Brennan', 'Moreau', 'Tanaka', 'Silva', 'Kowalski',
  'Adeyemi', 'Larsen', 'Castillo', 'Nguyen', 'Fischer', 'Rahman', 'Oduya', 'Whitfield', 'Marchetti', 'Delgado', 'Varga', 'Sato',
];
const PHYSICIANS = [
  { first_name: 'Elena', last_name: 'Marsh' },
  { first_name: 'Samuel', last_name: 'Achebe' },
  { first_name: 'Hiro', last_name: 'Watanabe' },
  { first_name: 'Clara', last_name: 'Byrne' },
];
/** Real city, state and ZIP; the streets are generic. */
const PLACES = [
  { city: 'Brooklyn', state: 'NY', zip: '11215', area: '718' },
  { city: 'Albany', state: 'NY', zip: '12203', area: '518' },
  { city: 'Hoboken', state: 'NJ', zip: '07030', area: '201' },
  { city: 'Stamford', state: 'CT', zip: '06902', area: '203' },
  { city: 'Philadelphia', state: 'PA', zip: '19103', area: '215' },
  { city: 'Boston', state: 'MA', zip: '02118', area: '617' },
  { city: 'Columbus', state: 'OH', zip: '43215', area: '614' },
  { city: 'Chicago', state: 'IL', zip: '60614', area: '312' },
  { city: 'Minneapolis', state: 'MN', zip: '55408', area: '612' },
  { city: 'Atlanta', state: 'GA', zip: '30308', area: '404' },
  { city: 'Charlotte', state: 'NC', zip: '28203', area: '704' },
  { city: 'Nashville', state: 'TN', zip: '37203', area: '615' },
  { city: 'Tampa', state: 'FL', zip: '33606', area: '813' },
  { city: 'Miami', state: 'FL', zip: '33131', area: '305' },
  { city: 'Austin', state: 'TX', zip: '78704', area: '512' },
  { city: 'Houston', state: 'TX', zip: '77006', area: '713' },
  { city: 'Denver', state: 'CO', zip: '80205', area: '303' },
  { city: 'Phoenix', state: 'AZ', zip: '85004', area: '602' },
  { city: 'Tucson', state: 'AZ', zip: '85719', area: '520' },
  { city: 'Las Vegas', state: 'NV', zip: '89101', area: '702' },
  { city: 'San Diego', state: 'CA', zip: '92103', area: '619' },
  { city: 'Oakland', state: 'CA', zip: '94610', area: '510' },
  { city: 'Portland', state: 'OR', zip: '97214', area: '503' },
  { city: 'Seattle', state: 'WA', zip: '98122', area: '206' },
  { city: 'Richmond', state: 'VA', zip: '23220', area: '804' },
  { city: 'Indianapolis', state: 'IN', zip: '46202', area: '317' },
];
const STREETS = ['Maple Ave', 'Cedar Lane', 'Linden St', 'Harbor View Rd', 'Willow Ct', 'Orchard Way', 'Pine Ridge Dr', 'Elm St', 'Sycamore Blvd', 'Lakeview Ter'];
const ACCESS_NOTES = [
  'Gate code 4821#, then the second building on the left.',
  'Ring the side door; the front bell does not work. Friendly dog in the yard.',
  'Buzz unit 3B; elevator is at the back of the lobby.',
  'Visitor parking behind the building, spots marked V. Call on arrival.',
  'Apartment above the bakery; entrance on the alley side.',
  'Leave parcels with the front desk concierge.',
];
const CLINICAL_NOTES = [
  'Patient fasting 12 h before the draw.',
  'Follow-up lipid panel 8 weeks after starting atorvastatin 20 mg.',
  'On levothyroxine 75 mcg; draw before the morning dose.',
  'Rule out iron deficiency; reports fatigue for 3 months.',
  'Annual wellness screen; no current symptoms.',
  'Difficult venous access on previous draws; butterfly needle recommended.',
];
const ICD_CODES = ['Z00.00', 'E78.5', 'R73.03', 'E03.9', 'D50.9', 'Z13.220', 'E55.9', 'R53.83'];
const SHIPMENT_NOTES: Record<string, string> = {
  problem_in_transit_customer: 'Carrier reported an address exception; delivery attempt failed.',
  problem_in_transit_lab: 'Return parcel scanned at origin; no carrier scan for three days.',
  failure_to_deliver_to_customer: 'Returned to sender after three failed delivery attempts.',
  failure_to_deliver_to_lab: 'Return parcel damaged in transit; carrier could not deliver it.',
  lost: 'Carrier declared the return parcel lost.',
};

const digits = (rng: Random, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');

function durationMs(rng: Random, low: string): number {
  const [lo, hi] = STEP_HOURS[low] ?? [6, 48];
  return Math.round((lo + rng.next() * (hi - lo)) * HOUR);
}

interface Patient {
  first: string;
  last: string;
  dob: string;
  gender: string;
  phone: string;
  email: string;
  place: (typeof PLACES)[number];
  firstLine: string;
  secondLine: string | null;
  accessNotes: string | null;
}

/** A made-up patient living in one of `states` (a billing type's states), born on the user's birth date when known. */
function newPatient(rng: Random, birthDate: string | null, states: string[]): Patient {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const places = PLACES.filter((p) => states.includes(p.state));
  const place = places.length ? rng.pick(places) : { ...rng.pick(PLACES), state: rng.pick(states) };
  return {
    first,
    last,
    dob: birthDate ?? `${rng.int(1948, 2003)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    gender: rng.pick(['female', 'male', 'female', 'male', 'other']),
    phone: `+1 ${place.area} 555 01${digits(rng, 2)}`,
    email: `${first}.${last}${rng.int(1, 99)}@example.com`.toLowerCase(),
    place,
    firstLine: `${rng.int(12, 4980)} ${rng.pick(STREETS)}`,
    secondLine: rng.chance(0.35) ? `Apt ${rng.int(1, 24)}${rng.pick(['A', 'B', 'C', 'D'])}` : null,
    accessNotes: rng.chance(0.4) ? rng.pick(ACCESS_NOTES) : null,
  };
}

/** The scenarios to seed: all of the available methods', topped up to `count` with fillers. */
function scenariosFor(methods: string[], rng: Random, count: number): Scenario[] {
  const list = methods.flatMap((m) => SCENARIOS[m] ?? []);
  const fillerMethods = methods.filter((m) => FILLERS[m]);
  while (list.length < count && fillerMethods.length) {
    const method = rng.pick(fillerMethods);
    list.push({ method, target: rng.chance(0.7) ? FILLERS[method]![0]! : FILLERS[method]![1]! });
  }
  return rng.shuffle(list);
}

/**
 * Seeds demo orders for the team when it has none: `lab_tests` of the shared catalogue (team_id null)
 * whose lab the team has an ACTIVE account with, spread across the team's users. Does nothing when the
 * team already has orders, or when there is no catalogue, active account or user. The team row is
 * locked while seeding, so two processes starting at once seed once. Returns how many orders it wrote.
 * Seeded orders are a snapshot: no lifecycle jobs are enqueued for them.
 */
export async function seedDemoOrders(db: Db, teamId: string, rng: Random, opts: DemoOrdersOptions = {}): Promise<number> {
  const now = (opts.now ?? new Date()).getTime();
  return db.transaction(async (tx) => {
    const team = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update');
    if (team.length === 0) return 0;
    const [existing] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.teamId, teamId)).limit(1);
    if (existing) return 0;

    const accounts = (
      await tx
        .select()
        .from(labAccounts)
        .where(and(eq(labAccounts.teamId, teamId), sql`lower(${labAccounts.status}) = 'active'`))
        .orderBy(asc(labAccounts.createdAt), asc(labAccounts.id))
    ).filter((a) => Object.values(a.allowedBilling).some((states) => states.length > 0));
    if (accounts.length === 0) return 0;
    const tests = await tx
      .select({ test: labTests, labSlug: labs.slug })
      .from(labTests)
      .innerJoin(labs, eq(labs.id, labTests.labId))
      .where(
        and(
          isNull(labTests.teamId),
          eq(labTests.status, 'active'),
          inArray(
            labs.slug,
            accounts.map((a) => a.labSlug),
          ),
        ),
      )
      .orderBy(asc(labTests.slug), asc(labTests.id));
    if (tests.length === 0) return 0;
    const people = await tx
      .select({ id: users.id, birthDate: users.fallbackBirthDate })
      .from(users)
      .where(eq(users.teamId, teamId))
      .orderBy(asc(users.createdOn), asc(users.id))
      .limit(200);
    if (people.length === 0) return 0;

    const methods = [...new Set(tests.map((t) => t.test.method))].filter((m) => SCENARIOS[m]).sort();
    const scenarios = scenariosFor(methods, rng, opts.count ?? 40);
    // A handful of regulars have several orders; most patients have one.
    const regulars = rng.shuffle(people).slice(0, Math.max(1, Math.floor(people.length / 8)));
    // A few regulars come back every few months for the same panel: their biomarkers have a history.
    const historyMethod = methods.includes('walk_in_test') ? 'walk_in_test' : methods[0]!;
    const returning = [...regulars, ...rng.shuffle(people).filter((p) => !regulars.includes(p))].slice(0, HISTORY_PATIENTS);
    const histories: Scenario[] = returning.flatMap((u) =>
      HISTORY_VISITS_DAYS_AGO.map((days) => ({
        method: historyMethod,
        target: { top: 'completed' as Top, low: 'completed' },
        history: { userId: u.id, endedDaysAgo: days + rng.int(0, 20), testName: HISTORY_TEST },
      })),
    );
    const patients = new Map<string, Patient>();
    let written = 0;
    for (const scenario of [...histories, ...scenarios]) {
      const steps = planSteps(scenario.method, { top: 'received', low: 'ordered' }, scenario.target);
      if (!steps) continue;
      const candidates = tests.filter((t) => t.test.method === scenario.method);
      const named = scenario.history ? candidates.filter((t) => t.test.name === scenario.history!.testName) : [];
      const { test, labSlug } = rng.pick(named.length ? named : candidates);
      const account = rng.pick(accounts.filter((a) => a.labSlug === labSlug));
      const billingTypes = Object.entries(account.allowedBilling).filter(([, states]) => states.length > 0);
      const user = scenario.history ? people.find((p) => p.id === scenario.history!.userId)! : rng.chance(0.3) ? rng.pick(regulars) : rng.pick(people);
      // A patient keeps their name and home across orders; the billing follows where they live.
      let patient = patients.get(user.id);
      const usable = billingTypes.filter(([, states]) => !patient || states.includes(patient.place.state));
      const [billingType, states] =
        usable.find(([b]) => b === 'client_bill' && rng.chance(0.75)) ?? (usable.length ? rng.pick(usable) : rng.pick(billingTypes));
      if (!patient) {
        patient = newPatient(rng, user.birthDate, states);
        patients.set(user.id, patient);
      }
      const { first, last: lastName, place } = patient;

      // The history: realistic gaps between steps, ending some time ago (in-flight orders more recently).
      const history: { status: string; at: number }[] = [];
      const gaps = steps.map((s) => durationMs(rng, s.low));
      const isFinal = FINAL_TOPS.has(scenario.target.top);
      const sinceLast = scenario.history ? scenario.history.endedDaysAgo * DAY : isFinal ? rng.int(2, 20 * 24) * HOUR : rng.int(10, 30 * 60) * 60_000;
      const total = gaps.reduce((a, b) => a + b, 0);
      const createdAt = now - (scenario.history ? total + sinceLast : Math.min(42 * DAY, total + sinceLast));
      let at = createdAt;
      history.push({ status: orderStatus('received', scenario.method, 'ordered'), at });
      for (const [i, step] of steps.entries()) {
        at = Math.min(at + gaps[i]!, now - 60_000);
        history.push({ status: orderStatus(step.top, scenario.method, step.low), at });
      }
      const last = steps[steps.length - 1] ?? { top: 'received' as Top, low: 'ordered' };
      const reached = new Set(steps.map((s) => s.low));

      const visited = scenario.method === 'testkit' || scenario.method === 'at_home_phlebotomy';
      const address: Record<string, unknown> = {
        receiver_name: `${first} ${lastName}`,
        first_line: patient.firstLine,
        second_line: patient.secondLine,
        city: place.city,
        state: place.state,
        zip: place.zip,
        country: 'US',
        phone_number: patient.phone,
        access_notes: visited ? patient.accessNotes : null,
      };
      const testkitShipped = scenario.method === 'testkit' && reached.has('transit_customer');
      const returned = reached.has('transit_lab');
      const shipment = testkitShipped
        ? {
            id: `shp_${digits(rng, 12)}`,
            outbound_tracking_number: `9400${digits(rng, 18)}`,
            outbound_courier: 'usps',
            inbound_tracking_number: returned ? `7${digits(rng, 11)}` : null,
            inbound_courier: returned ? 'fedex' : null,
            notes: SHIPMENT_NOTES[last.low] ?? null,
          }
        : null;
      const sampled =
        (scenario.method === 'testkit' && testkitShipped) ||
        reached.has('draw_completed') ||
        reached.has('partial_results') ||
        reached.has('sample_error') ||
        (scenario.method === 'walk_in_test' && last.top === 'completed');
      const physician = rng.chance(0.6) ? { ...rng.pick(PHYSICIANS), npi: `1${digits(rng, 9)}` } : null;

      const [row] = await tx
        .insert(orders)
        .values({
          teamId,
          userId: user.id,
          labTestId: test.id,
          labAccountId: account.id,
          collectionMethod: scenario.method,
          status: last.top,
          lowLevelStatus: last.low,
          origin: 'created',
          patientDetails: {
            first_name: first,
            last_name: lastName,
            dob: patient.dob,
            gender: patient.gender,
            phone_number: patient.phone,
            email: patient.email,
          },
          patientAddress: address,
          physician,
          billingType,
          icdCodes: rng.chance(0.5) ? rng.shuffle(ICD_CODES).slice(0, rng.int(1, 2)) : null,
          priority: rng.chance(0.1),
          clinicalNotes: rng.chance(0.3) ? rng.pick(CLINICAL_NOTES) : null,
          sampleId: sampled ? `${labSlug.slice(0, 2).toUpperCase()}${digits(rng, 9)}` : null,
          shipment,
          createdAt: new Date(createdAt),
          updatedAt: new Date(history[history.length - 1]!.at),
        })
        .returning();
      await tx.insert(orderEvents).values(history.map((h) => ({ orderId: row!.id, status: h.status, createdAt: new Date(h.at) })));
      // The lab's results, released when the history says: partial results, then the final report.
      const resulted = history.filter((h) => h.status.endsWith('.partial_results') || h.status.startsWith('completed.'));
      if (resulted.length) {
        const request = { interpretation: rng.pick(['normal', 'normal', 'normal', 'abnormal', 'abnormal', 'critical'] as const), hasMissingResults: rng.chance(0.1) };
        let summary = null;
        for (const h of resulted) {
          const stage = h.status.startsWith('completed.') ? 'final' : 'partial';
          summary = (await releaseResults(tx, row!, stage, request, { now: new Date(h.at), emitEvents: false })) ?? summary;
        }
        if (summary) await tx.update(orders).set({ interpretation: summary.interpretation, hasMissingResults: summary.hasMissingResults }).where(eq(orders.id, row!.id));
      }
      if (scenario.method === 'at_home_phlebotomy') {
        const reachedAt = new Map(steps.map((s, i) => [s.low, history[i + 1]!.at] as const));
        await seedDemoAppointment(tx, rng, {
          teamId,
          orderId: row!.id,
          userId: user.id,
          address,
          patient: { first_name: first, last_name: lastName, dob: patient.dob, gender: patient.gender, phone_number: patient.phone, email: patient.email },
          reachedAt,
          lastLow: last.low,
        });
      }
      written++;
    }
    return written;
  });
}
