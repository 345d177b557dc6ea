/**
 * Fixtures of the order suites, written straight into the store: a minimal lab catalogue (the four
 * labs with their stable ids, a few markers and shared lab tests) and lab accounts per team. Labs
 * are inserted only when missing, and marker ids sit far above any real catalogue's, so these
 * fixtures work whether or not the store already holds the synced catalogue.
 */
import { inflateSync } from 'node:zlib';
import { US_STATES } from '../../server/contract';
import { labAccounts, labs, labTests, markers } from '../../server/service/db/schema';
import type { Database } from '../../server/store/db';
import type { ServiceSchema } from '../../server/service/db/schema';
import type { ServiceHarness, Team } from './harness';

type Db = Database<ServiceSchema>;
export type LabSlug = 'quest' | 'labcorp' | 'bioreference' | 'sonora_quest';
export const LAB_ID: Record<LabSlug, number> = { quest: 1, labcorp: 2, bioreference: 3, sonora_quest: 4 };

const LAB_ROWS = [
  { id: 1, slug: 'quest', name: 'Quest Diagnostics', methods: ['walk_in_test', 'at_home_phlebotomy', 'testkit'] },
  { id: 2, slug: 'labcorp', name: 'Labcorp', methods: ['walk_in_test', 'at_home_phlebotomy'] },
  { id: 3, slug: 'bioreference', name: 'BioReference', methods: ['walk_in_test', 'at_home_phlebotomy'] },
  { id: 4, slug: 'sonora_quest', name: 'Sonora Quest', methods: ['walk_in_test'] },
];

/** Marker ids of the fixture catalogue. */
export const M = {
  questGlucose: 990_001,
  questLipids: 990_002,
  questA1c: 990_003,
  questNotOrderable: 990_004,
  labcorpGlucose: 990_011,
  labcorpTsh: 990_012,
  sonoraVitD: 990_021,
} as const;

export interface Catalogue {
  /** quest, walk_in_test: glucose + lipid panel */
  questPanel: string;
  /** quest, testkit: HbA1c */
  questKit: string;
  /** quest, inactive */
  questInactive: string;
  /** labcorp, walk_in_test: glucose + TSH */
  labcorpPanel: string;
  /** sonora_quest, walk_in_test: vitamin D */
  sonoraPanel: string;
}

const marker = (id: number, labId: number, name: string, providerId: string, extra: Partial<typeof markers.$inferInsert> = {}) => ({
  id,
  labId,
  name,
  slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  providerId,
  type: 'biomarker',
  unit: 'mg/dL',
  price: '12.50',
  expectedResults: [],
  ...extra,
});

/** Labs (when missing), markers and shared lab tests; returns the lab test ids. */
export async function insertCatalogue(db: Db): Promise<Catalogue> {
  await db
    .insert(labs)
    .values(
      LAB_ROWS.map((l) => ({
        id: l.id,
        slug: l.slug,
        name: l.name,
        firstLineAddress: `${l.id} Lab Way`,
        city: 'Testville',
        zipcode: '10001',
        collectionMethods: l.methods,
        sampleTypes: ['serum'],
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(markers)
    .values([
      marker(M.questGlucose, 1, 'Fixture Glucose', 'FXQ-GLU'),
      marker(M.questLipids, 1, 'Fixture Lipid Panel', 'FXQ-LIP', { type: 'panel', price: '30.00' }),
      marker(M.questA1c, 1, 'Fixture HbA1c', 'FXQ-A1C', { unit: '%' }),
      marker(M.questNotOrderable, 1, 'Fixture Retired Test', 'FXQ-OLD', { isOrderable: false }),
      marker(M.labcorpGlucose, 2, 'Fixture LC Glucose', 'FXL-GLU'),
      marker(M.labcorpTsh, 2, 'Fixture LC TSH', 'FXL-TSH', { unit: 'mIU/L' }),
      marker(M.sonoraVitD, 4, 'Fixture SQ Vitamin D', 'FXS-VTD', { unit: 'ng/mL' }),
    ])
    .onConflictDoNothing();
  const test = (labId: number, name: string, method: string, markerIds: number[], status = 'active') => ({
    teamId: null,
    labId,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    name,
    sampleType: method === 'testkit' ? 'dried_blood_spot' : 'serum',
    method,
    price: 49.5,
    status,
    markerIds,
  });
  const rows = await db
    .insert(labTests)
    .values([
      test(1, 'Fixture Metabolic Panel', 'walk_in_test', [M.questGlucose, M.questLipids]),
      test(1, 'Fixture A1c Kit', 'testkit', [M.questA1c]),
      test(1, 'Fixture Retired Panel', 'walk_in_test', [M.questGlucose], 'inactive'),
      test(2, 'Fixture LC Thyroid Panel', 'walk_in_test', [M.labcorpGlucose, M.labcorpTsh]),
      test(4, 'Fixture SQ Vitamin Panel', 'walk_in_test', [M.sonoraVitD]),
    ])
    .returning({ id: labTests.id });
  return {
    questPanel: rows[0]!.id,
    questKit: rows[1]!.id,
    questInactive: rows[2]!.id,
    labcorpPanel: rows[3]!.id,
    sonoraPanel: rows[4]!.id,
  };
}

export const ALL_STATES: string[] = [...US_STATES];

export interface AccountInput {
  lab: LabSlug;
  status?: string;
  /** billing type → states; default client_bill and patient_bill everywhere */
  allowedBilling?: Record<string, string[]>;
  name?: string;
  providerAccountId?: string;
  defaultClinicalNotes?: string | null;
  /** Accounts are picked oldest first; spread them out so the order is certain. */
  createdAt?: Date;
}

let accountSeq = 0;

/** A lab account of the team; returns its id. */
export async function insertLabAccount(db: Db, teamId: string, a: AccountInput): Promise<string> {
  accountSeq += 1;
  const [row] = await db
    .insert(labAccounts)
    .values({
      teamId,
      labSlug: a.lab,
      status: a.status ?? 'active',
      delegatedFlow: 'not_delegated',
      providerAccountId: a.providerAccountId ?? `PA-${a.lab.toUpperCase()}-${1000 + accountSeq}`,
      accountName: a.name ?? `${a.lab} account ${accountSeq}`,
      defaultClinicalNotes: a.defaultClinicalNotes ?? null,
      businessUnits: [],
      allowedBilling: a.allowedBilling ?? { client_bill: ALL_STATES, patient_bill: ALL_STATES },
      createdAt: a.createdAt ?? new Date(Date.UTC(2025, 0, 1, 0, 0, accountSeq)),
    })
    .returning({ id: labAccounts.id });
  return row!.id;
}

export interface OrderTeam {
  team: Team;
  userId: string;
}

/** A team with one user (client_user_id given) through the API. */
export async function teamWithUser(svc: ServiceHarness, clientUserId = `pt-${Math.random().toString(36).slice(2, 10)}`): Promise<OrderTeam> {
  const team = await svc.createTeam();
  const userId = await svc.createUser(team, { client_user_id: clientUserId });
  return { team, userId };
}

export const patientDetails = (over: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  dob: '1985-12-10',
  gender: 'female',
  phone_number: '+15555550100',
  email: 'ada@example.com',
  ...over,
});

export const patientAddress = (over: Record<string, unknown> = {}) => ({
  receiver_name: 'Ada Lovelace',
  first_line: '12 Analytical Engine Rd',
  second_line: 'Apt 3',
  city: 'New York',
  state: 'NY',
  zip: '10001',
  country: 'US',
  ...over,
});

/** A valid create body for the user; lab_test_id unless the overrides say otherwise. */
export function createBody(userId: string, labTestId: string | undefined, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_id: userId,
    patient_details: patientDetails(),
    patient_address: patientAddress(),
    ...(labTestId ? { lab_test_id: labTestId } : {}),
    physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' },
    ...over,
  };
}

/** A valid import body. */
export function importBody(userId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_id: userId,
    billing_type: 'client_bill',
    order_set: { lab_test_ids: [] },
    collection_method: 'walk_in_test',
    patient_details: patientDetails(),
    patient_address: patientAddress(),
    sample_id: `S-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    ...over,
  };
}

/**
 * The text a PDF shows: its content streams inflated and the strings of its text operators decoded
 * (pdf-lib writes standard-font text as hex strings). Lines are joined with newlines.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  const streamRe = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const t of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) out.push(Buffer.from(t[1]!, 'hex').toString('latin1'));
    for (const t of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(t[1]!);
    streamRe.lastIndex = end + 'endstream'.length;
  }
  return out.join('\n');
}
