import type { ValidationIssue } from './common';

/**
 * The service's one rule for text: every string it accepts, anywhere (JSON bodies at any depth,
 * object keys included; query strings; path values; multipart fields), is well-formed Unicode
 * without NUL. PostgreSQL stores neither (a lone surrogate in jsonb, a NUL in text: both errors in
 * the store), and neither is text a person typed. Checked once for every route, before its own
 * validation (server/service/plugins/textRule.ts), so no field can forget it.
 */

export const TEXT_RULE_TYPE = 'value_error.text';
export const TEXT_RULE_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text the service can store: no NUL, no unpaired surrogate. */
export function isAcceptableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** At most this many problems are reported for one request (a hostile body can hold millions). */
const MAX_ISSUES = 20;

/**
 * Every string of `value` (and every object key) that breaks the rule, with its location, e.g.
 * `["body", "patient_address", "second_line"]`. Walks iteratively: a body nested a hundred
 * thousand levels deep must not overflow the stack.
 */
export function textIssues(value: unknown, root: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: [unknown, (string | number)[]][] = [[value, root]];
  while (stack.length && issues.length < MAX_ISSUES) {
    const [v, loc] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isAcceptableText(v)) issues.push({ loc, msg: TEXT_RULE_MESSAGE, type: TEXT_RULE_TYPE });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...loc, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (!isAcceptableText(key)) issues.push({ loc: [...loc, key], msg: `field names ${TEXT_RULE_MESSAGE}`, type: TEXT_RULE_TYPE });
        stack.push([child, [...loc, key]]);
      }
    }
  }
  return issues.slice(0, MAX_ISSUES);
}
