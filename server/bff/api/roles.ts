/** Staff roles. Unknown roles (from a newer version) get no permissions rather than failing. */
export const ROLES = ['admin', 'coordinator', 'lab_ops', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

/** What each permission is for, and who has it. Checked on the server for every call. */
export const PERMISSIONS = {
  /** Patient directory: client ids, connected sources, fallback zone and birth date. */
  'users:read': ['admin', 'coordinator', 'lab_ops'],
  /** Wearable health data (mindfulness minutes and later timeseries). */
  'timeseries:read': ['admin', 'coordinator'],
  'audit:read': ['admin'],
  /** Lab orders: patient details, address, clinical notes, requisitions (reading and listing). */
  'orders:read': ['admin', 'coordinator', 'lab_ops'],
  /** Placing and cancelling lab orders. */
  'orders:write': ['admin', 'coordinator'],
  /** The lab catalogue: lab accounts, labs, lab tests and markers. */
  'catalogue:read': ['admin', 'coordinator', 'lab_ops'],
  /** At-home phlebotomy appointments and the slots on offer (patient address, access notes). */
  'appointments:read': ['admin', 'coordinator', 'lab_ops'],
  /** Booking, requesting, rescheduling and cancelling appointments (scheduling is the coordinators' job). */
  'appointments:write': ['admin', 'coordinator'],
  /** Lab-report parsing jobs, their extracted results and the uploaded files (the review queue). */
  'parser:read': ['admin', 'coordinator', 'lab_ops', 'reviewer'],
  /** Uploading lab reports to parse. */
  'parser:upload': ['admin', 'coordinator', 'lab_ops', 'reviewer'],
  /** Approving (with corrections) or rejecting a parsed report: the reviewers' job. */
  'parser:review': ['admin', 'reviewer'],
  /** The team's webhook endpoints, their signing secrets, delivery log and replays. */
  'webhooks:manage': ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

export function can(role: string, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly string[]).includes(role);
}
