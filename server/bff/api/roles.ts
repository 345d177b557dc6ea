/** Staff roles. Unknown roles (from a newer version) get no permissions rather than failing. */
export const ROLES = ['admin', 'coordinator', 'lab_ops', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  coordinator: 'Care coordinator',
  lab_ops: 'Lab operations',
  reviewer: 'Parser reviewer',
};

/**
 * The one role matrix: who may do what. The BFF checks it on every route, the dashboard shows each
 * role only what it allows, and docs/permissions.md is generated from it (`npm run docs:permissions`).
 */
export const PERMISSIONS = {
  'users:read': {
    roles: ['admin', 'coordinator', 'lab_ops'],
    purpose: 'Patient directory: client ids, connected sources, fallback zone and birth date',
  },
  'users:write': {
    roles: ['admin', 'coordinator'],
    purpose: 'Creating patients and editing their client id, fallback zone, birth date and ingestion bounds',
  },
  'timeseries:read': { roles: ['admin', 'coordinator'], purpose: 'Wearable health data (mindfulness minutes and later timeseries)' },
  'audit:read': { roles: ['admin'], purpose: 'The audit trail: reading it, checking its hash chain, exporting it' },
  'staff:manage': { roles: ['admin'], purpose: 'Staff members, their roles and sign-in, and the two-factor rules per role' },
  'orders:read': {
    roles: ['admin', 'coordinator', 'lab_ops'],
    purpose: 'Lab orders: patient details, address, clinical notes, requisitions (reading and listing)',
  },
  'orders:write': { roles: ['admin', 'coordinator'], purpose: 'Placing and cancelling lab orders' },
  'orders:collect': { roles: ['admin', 'lab_ops'], purpose: 'Marking an on-site collection order’s draw completed (the sample is on its way to the lab)' },
  'orders:triage': {
    roles: ['admin', 'coordinator', 'lab_ops'],
    purpose: 'Working the needs-attention queue: claiming orders, staff notes, resolving, reshipping or recreating lost kits',
  },
  'results:read': {
    roles: ['admin', 'coordinator', 'lab_ops'],
    purpose: 'Lab results of orders, result reports (PDF) and each patient’s biomarker history',
  },
  'results:acknowledge': { roles: ['admin', 'coordinator'], purpose: 'Acknowledging a critical result: the coordinator has acted on it' },
  'catalogue:read': { roles: ['admin', 'coordinator', 'lab_ops'], purpose: 'The lab catalogue: lab accounts, labs, lab tests and markers' },
  'appointments:read': {
    roles: ['admin', 'coordinator', 'lab_ops'],
    purpose: 'At-home phlebotomy appointments and walk-in visits at patient service centers, and the slots on offer (patient address, access notes)',
  },
  'appointments:write': {
    roles: ['admin', 'coordinator'],
    purpose: 'Booking, requesting, rescheduling and cancelling appointments (scheduling is the coordinators’ job)',
  },
  'parser:read': {
    roles: ['admin', 'coordinator', 'lab_ops', 'reviewer'],
    purpose: 'Lab-report parsing jobs, their extracted results and the uploaded files (the review queue)',
  },
  'parser:upload': { roles: ['admin', 'coordinator', 'lab_ops', 'reviewer'], purpose: 'Uploading lab reports to parse' },
  'parser:review': { roles: ['admin', 'reviewer'], purpose: 'Approving (with corrections) or rejecting a parsed report: the reviewers’ job' },
  'webhooks:manage': {
    roles: ['admin'],
    purpose: 'The team’s webhook endpoints, their signing secrets, delivery log and replays, and the team’s webhook settings',
  },
} as const satisfies Record<string, { roles: readonly Role[]; purpose: string }>;
export type Permission = keyof typeof PERMISSIONS;

export function can(role: string, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly string[]).includes(role);
}
