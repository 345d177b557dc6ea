/**
 * What the dashboard shows each role. The BFF enforces the same matrix (server/bff/auth/roles.ts);
 * this only hides what would be refused anyway. Unknown roles see nothing.
 */
const SHOWN: Record<string, readonly string[]> = {
  'users:read': ['admin', 'coordinator', 'lab_ops'],
  'timeseries:read': ['admin', 'coordinator'],
  'audit:read': ['admin'],
  'orders:read': ['admin', 'coordinator', 'lab_ops'],
  'orders:write': ['admin', 'coordinator'],
  'catalogue:read': ['admin', 'coordinator', 'lab_ops'],
  'appointments:read': ['admin', 'coordinator', 'lab_ops'],
  'appointments:write': ['admin', 'coordinator'],
  'parser:read': ['admin', 'coordinator', 'lab_ops', 'reviewer'],
  'parser:upload': ['admin', 'coordinator', 'lab_ops', 'reviewer'],
  'parser:review': ['admin', 'reviewer'],
  'webhooks:manage': ['admin'],
};

export function can(role: unknown, permission: keyof typeof SHOWN): boolean {
  return typeof role === 'string' && (SHOWN[permission] ?? []).includes(role);
}
