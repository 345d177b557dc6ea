import { z } from 'zod';
import { hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';

export const CreateTeamBody = z.object({ name: z.string().trim().min(1).max(200).refine(hasNoNul, NO_NUL_MESSAGE) });
export const CreateTeamResponse = z.object({ team_id: Uuid, api_key: z.string() });
export const RotateKeyParams = z.object({ team_id: Uuid });
export const RotateKeyBody = z.object({
  revoke_previous: z
    .boolean()
    .default(true)
    .describe('Revoke the team’s existing keys at once (default) or keep them valid alongside the new one'),
});
export const RotateKeyResponse = z.object({ team_id: Uuid, api_key: z.string(), revoked_keys: z.number().int() });
