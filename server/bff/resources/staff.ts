/**
 * react-admin resources `staff` and `role-policies` (admins only): the BFF's own records, not the
 * service's. Every change is audited with the fields it touched (never a password), and a change of
 * role, password or the disabled flag ends the member's sessions (server/bff/auth/staff.ts).
 */
import type { AuditAction } from '../api/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import {
  CreateStaff,
  ErrorBody,
  IdParams,
  isUuid,
  RolePolicyParams,
  RolePolicyRecord,
  ROLES,
  StaffList,
  StaffRecord,
  UpdateRolePolicy,
  UpdateStaff,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { addStaff, findStaff, listRolePolicies, listStaff, resetMfa, setRolePolicy, staffRecordOf, updateStaff } from '../auth/staff';
import { staff } from '../db/schema';
import { notFound } from '../errors';
import { sendAll, sendList } from '../pagination';

const TAGS = ['staff'];
/** Staff records hold no patient data: the trail names the member changed, no patients. */
const recorded = (action: AuditAction) => ({ audit: { resource: 'staff', action, patients: () => [] } });

export const staffResource: FastifyPluginAsyncZod = async (app) => {
  const canManage = requirePermission('staff:manage', 'manage staff');
  const db = app.bffDb;
  const existing = async (id: string) => {
    const row = isUuid(id) ? await findStaff(db, id) : undefined;
    if (!row) throw notFound('Staff member');
    return row;
  };

  app.get(
    '',
    {
      preValidation: canManage,
      schema: { operationId: 'listStaff', tags: TAGS, querystring: StaffList, response: { 200: z.array(StaffRecord), '4XX': ErrorBody } },
      config: recorded('list'),
    },
    async (req, reply) => {
      const { filter, range, sort } = req.query;
      if (filter.id) {
        const ids = filter.id.filter(isUuid);
        const rows = ids.length ? await db.select().from(staff).where(inArray(staff.id, ids)) : [];
        req.auditNote.action = 'get_many';
        return sendAll(reply, 'staff', rows.map(staffRecordOf));
      }
      const [first, last] = range;
      const { rows, total } = await listStaff(db, { q: filter.q, roles: filter.role, disabled: filter.disabled, sort }, first, last - first + 1);
      return sendList(reply, 'staff', first, { items: rows, total, hasNextPage: last + 1 < total });
    },
  );

  app.get(
    '/:id',
    {
      preValidation: canManage,
      schema: { operationId: 'getStaffMember', tags: TAGS, params: IdParams, response: { 200: StaffRecord, '4XX': ErrorBody } },
      config: recorded('read'),
    },
    async (req) => staffRecordOf(await existing(req.params.id)),
  );

  app.post(
    '',
    {
      preValidation: canManage,
      schema: { operationId: 'createStaffMember', tags: TAGS, body: CreateStaff, response: { 201: StaffRecord, '4XX': ErrorBody } },
      config: recorded('create'),
    },
    async (req, reply) => {
      const record = await addStaff(db, req.body);
      req.auditNote.detail = { role: record.role };
      return reply.status(201).send(record);
    },
  );

  app.put(
    '/:id',
    {
      preValidation: canManage,
      schema: { operationId: 'updateStaffMember', tags: TAGS, params: IdParams, body: UpdateStaff, response: { 200: StaffRecord, '4XX': ErrorBody } },
      config: recorded('update'),
    },
    async (req) => {
      const member = await existing(req.params.id);
      req.auditNote.recordIds = [member.id];
      const result = await updateStaff(db, member.id, req.body as Parameters<typeof updateStaff>[2]);
      req.auditNote.detail = {
        changed: result.changed,
        ...(result.changed.includes('role') && { from_role: result.previousRole, to_role: result.record.role }),
        sessions_ended: result.sessionsEnded,
      };
      return result.record;
    },
  );

  app.delete(
    '/:id/mfa',
    {
      preValidation: canManage,
      schema: {
        operationId: 'resetStaffMfa',
        summary: "Reset a member's two-factor enrolment (a lost phone); their sessions end",
        tags: TAGS,
        params: IdParams,
        response: { 200: StaffRecord, '4XX': ErrorBody },
      },
      config: recorded('mfa_reset'),
    },
    async (req) => {
      const member = await existing(req.params.id);
      const { record, sessionsEnded } = await resetMfa(db, member.id);
      req.auditNote.detail = { sessions_ended: sessionsEnded };
      return record;
    },
  );
};

/** `role-policies`: one record per role (id = the role), e.g. "reviewers must use two-factor". */
export const rolePoliciesResource: FastifyPluginAsyncZod = async (app) => {
  const canManage = requirePermission('staff:manage', 'manage staff');
  const recordedPolicy = (action: AuditAction) => ({ audit: { resource: 'role_policies', action, patients: () => [] } });

  app.get(
    '',
    {
      preValidation: canManage,
      schema: { operationId: 'listRolePolicies', tags: TAGS, response: { 200: z.array(RolePolicyRecord), '4XX': ErrorBody } },
      config: recordedPolicy('list'),
    },
    async (_req, reply) => sendAll(reply, 'role-policies', await listRolePolicies(app.bffDb, ROLES)),
  );

  app.put(
    '/:id',
    {
      preValidation: canManage,
      schema: {
        operationId: 'updateRolePolicy',
        tags: TAGS,
        params: RolePolicyParams,
        body: UpdateRolePolicy,
        response: { 200: RolePolicyRecord, '4XX': ErrorBody },
      },
      config: recordedPolicy('update'),
    },
    async (req) => {
      req.auditNote.detail = { mfa_required: req.body.mfa_required };
      return setRolePolicy(app.bffDb, req.params.id, req.body.mfa_required);
    },
  );
};
