/**
 * Lints an OpenAPI document with Redocly's recommended rules, as `redocly lint` would: what a
 * generated client or a documentation tool would trip over. Both Labdesk documents (the service's
 * and the BFF's) go through this one function.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface LintProblem {
  rule: string;
  severity: string;
  message: string;
  where: string;
}

/**
 * `ignore`: rule → JSON pointers (e.g. `#/paths/~1v2~1user~1`) where a problem is documented and
 * accepted; anything else found fails the caller's assertion.
 */
export async function lintOpenApi(document: object, ignore: Record<string, string[]> = {}): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems
    .map((p) => ({
      rule: p.ruleId,
      severity: p.severity,
      message: p.message,
      where: p.location[0]?.pointer ?? '',
    }))
    .filter((p) => !(ignore[p.rule] ?? []).some((pointer) => p.where === pointer || p.where.startsWith(`${pointer}/`)));
}
