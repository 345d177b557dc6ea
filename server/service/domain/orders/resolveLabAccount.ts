import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { labAccounts, type labs, type labTests, type markers, type ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import { findTeamLabAccount } from '../labs/accounts';

type Db = Database<ServiceSchema>;
export type LabAccountRow = typeof labAccounts.$inferSelect;
type LabRow = typeof labs.$inferSelect;
type LabTestRow = typeof labTests.$inferSelect;
type MarkerRow = typeof markers.$inferSelect;

/** Which account statuses may take a new order: create needs an active account, import also takes pending ones. */
export type AccountUse = 'create' | 'import';
const USABLE: Record<AccountUse, readonly string[]> = { create: ['active'], import: ['active', 'pending'] };

type Loc = (string | number)[];


/**
 * The given account, checked: the team's (else 422 "unknown lab account"), not the account an
 * INCORRECT_LAB order replaces, and in a status that may take this kind of order.
 */
export async function checkGivenLabAccount(
  db: Db,
  opts: { teamId: string; id: string; loc: Loc; use: AccountUse; excludeAccountId?: string | null },
): Promise<LabAccountRow> {
  const account = await findTeamLabAccount(db, opts.teamId, opts.id);
  if (!account) throw new Invalid(opts.loc, `unknown lab account ${opts.id}`, 'value_error.unknown_lab_account');
  if (opts.excludeAccountId && account.id === opts.excludeAccountId) {
    throw new Invalid(
      opts.loc,
      `lab account ${account.id} is the account of the order being replaced (update_reason INCORRECT_LAB); choose another lab account or leave lab_account_id out to have one resolved`,
      'value_error.incorrect_lab_account',
    );
  }
  if (!USABLE[opts.use].includes(account.status)) {
    const msg =
      opts.use === 'create'
        ? `lab account ${account.id} is ${account.status}, not active: only active lab accounts take new orders (POST /v3/order/import also accepts pending accounts)`
        : `lab account ${account.id} is ${account.status}: imported orders need an active or pending lab account`;
    throw new Invalid(opts.loc, msg, 'value_error.lab_account_not_active');
  }
  return account;
}

/** "panel "Lipid Panel" (lab test <id>, quest)", "marker "Glucose" (marker 12, labcorp)". */
export function describeOffenders(panels: LabTestRow[], markerRows: MarkerRow[], labSlugById: Map<number, string>): string[] {
  return [
    ...panels.map((p) => `panel "${p.name}" (lab test ${p.id}, lab ${labSlugById.get(p.labId) ?? p.labId})`),
    ...markerRows.map((m) => `marker "${m.name}" (marker ${m.id}, ${m.type === 'panel' ? 'panel, ' : ''}lab ${labSlugById.get(m.labId) ?? m.labId})`),
  ];
}

/** Every panel and marker must be of the account's lab; 422 listing the ones that are not. */
export function checkItemsOfAccountLab(
  account: LabAccountRow,
  loc: Loc,
  items: { panels: LabTestRow[]; markers: MarkerRow[] },
  labSlugById: Map<number, string>,
) {
  const panels = items.panels.filter((p) => labSlugById.get(p.labId) !== account.labSlug);
  const markerRows = items.markers.filter((m) => labSlugById.get(m.labId) !== account.labSlug);
  if (panels.length === 0 && markerRows.length === 0) return;
  throw new Invalid(
    loc,
    `lab account ${account.id} orders from lab ${account.labSlug} only; not of that lab: ${describeOffenders(panels, markerRows, labSlugById).join('; ')}`,
    'value_error.lab_account_lab_mismatch',
  );
}

const canBill = (account: LabAccountRow, billingType: string, state: string) => (account.allowedBilling?.[billingType] ?? []).includes(state);

/** The given account must be allowed to bill this billing type in the patient's state. */
export function checkAccountBilling(account: LabAccountRow, loc: Loc, billingType: string, state: string) {
  if (canBill(account, billingType, state)) return;
  throw new Invalid(
    loc,
    `lab account ${account.id} (${account.labSlug}) cannot bill ${billingType} in state ${state}; its allowed billing: ${describeBilling(account)}`,
    'value_error.lab_account_billing',
  );
}

function describeBilling(account: LabAccountRow): string {
  const entries = Object.entries(account.allowedBilling ?? {}).filter(([, states]) => states.length > 0);
  return entries.length ? entries.map(([type, states]) => `${type} in ${states.join(', ')}`).join('; ') : 'none';
}

/**
 * Picks the lab account for an order that names none: the first (oldest) account of the order's lab
 * that may take it (active; for import, pending too, active ones first), whose
 * allowed_billing[billing_type] includes the patient's state, and which is not the account of the
 * order an INCORRECT_LAB order replaces. None: 422 saying why.
 */
export async function pickLabAccount(
  db: Db,
  opts: { teamId: string; lab: LabRow; billingType: string; state: string; use: AccountUse; excludeAccountId?: string | null },
): Promise<LabAccountRow> {
  const all = await db
    .select()
    .from(labAccounts)
    .where(and(eq(labAccounts.teamId, opts.teamId), eq(labAccounts.labSlug, opts.lab.slug)))
    .orderBy(asc(labAccounts.createdAt), asc(labAccounts.id));
  const usable = USABLE[opts.use];
  const candidates = all
    .filter((a) => a.id !== opts.excludeAccountId && usable.includes(a.status) && canBill(a, opts.billingType, opts.state))
    .sort((a, b) => usable.indexOf(a.status) - usable.indexOf(b.status));
  if (candidates[0]) return candidates[0];

  const statuses = opts.use === 'create' ? 'active' : 'active or pending';
  const notes: string[] = [];
  if (all.length === 0) notes.push(`the team has no ${opts.lab.slug} lab account`);
  else {
    const byStatus = new Map<string, number>();
    for (const a of all) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    notes.push(`the team's ${opts.lab.slug} accounts: ${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')}`);
    if (opts.excludeAccountId && all.some((a) => a.id === opts.excludeAccountId)) {
      notes.push('the account of the order being replaced (INCORRECT_LAB) is never chosen again');
    }
  }
  throw new Invalid(
    ['body', 'lab_account_id'],
    `no ${statuses} lab account of lab ${opts.lab.slug} can bill ${opts.billingType} in state ${opts.state} (${notes.join('; ')})`,
    'value_error.no_lab_account',
  );
}
