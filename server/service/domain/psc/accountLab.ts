import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import { requireTeamLabAccount } from '../labs/accounts';
import { pscLab } from './catalogue';

type Db = Database<ServiceSchema>;
const accountLoc = ['query', 'lab_account_id'];

/**
 * The lab slug of the team's lab account named by `lab_account_id` (404 "Lab account not found" for
 * an unknown or another team's id, as the markers query answers). The account's lab decides which
 * centers a patient ordered through it may walk into.
 */
export async function accountLabSlug(db: Db, teamId: string, labAccountId: string): Promise<string> {
  return (await requireTeamLabAccount(db, teamId, labAccountId)).labSlug;
}

/**
 * The labs area info should list. With an account, only its lab: when `lab`/`labs` were also given
 * they must include it (422 at lab_account_id otherwise: the two ask for different labs). An
 * account of a lab without centers lists nothing.
 */
export function areaLabsForAccount(requested: string[], accountSlug: string): string[] {
  if (requested.length > 0 && !requested.includes(accountSlug)) {
    throw new Invalid(accountLoc, `the lab account is a ${accountSlug} account, not one of the requested labs (${requested.join(', ')}); leave lab/labs out or name ${accountSlug}`, 'value_error.lab_account_conflict');
  }
  return pscLab(accountSlug) ? [accountSlug] : [];
}

/** psc/info lists one lab's centers: an account of another lab is 422 (its patients cannot use them). */
export function assertAccountOfLab(labId: number, accountSlug: string) {
  const lab = pscLab(labId);
  if (!lab || lab.slug === accountSlug) return;
  const accountLab = pscLab(accountSlug);
  const hint = accountLab ? `use lab_id ${accountLab.id} (${accountSlug})` : `${accountSlug} has no patient service centers`;
  throw new Invalid(accountLoc, `the lab account is a ${accountSlug} account but lab_id ${labId} is ${lab.slug}; ${hint}`, 'value_error.lab_account_conflict');
}
