/**
 * What the dashboard shows each role: the BFF's own permission table (server/bff/api/roles.ts),
 * which the BFF enforces on every call; hiding here only spares a refusal. Unknown roles see nothing.
 */
import { can as roleCan, type Permission } from '../../server/bff/api/roles';

export type { Permission };

export function can(role: unknown, permission: Permission): boolean {
  return typeof role === 'string' && roleCan(role, permission);
}
