import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { safeEncode, toJSONSchema, type ZodType } from 'zod';

/**
 * Answers are written by a serializer compiled from each route's response schema
 * (fast-json-stringify, from the contract's zod schema as JSON Schema) instead of being validated
 * by zod and then given to JSON.stringify: validating every answer cost a sixth of a request.
 *
 * What the compiled serializer does not do is check: a value of the wrong type or a missing field
 * would be written as best it can. So the tests check every answer (`checkAnswers`, on whenever
 * LABDESK_CHECK_ANSWERS is set, as vitest's configuration does): the answer must pass the zod
 * schema, and the compiled serializer must write exactly what zod's output would be. Where a schema
 * has no JSON Schema form (a transform), the route keeps zod's serializer.
 */

type JsonSchema = Record<string, unknown>;

/**
 * fast-json-stringify picks an `anyOf` branch by validating the value with ajv on every call; the
 * contract's "X or null" is written as `nullable` instead, which it serialises directly.
 */
function forSerializer(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerializer);
  if (!node || typeof node !== 'object') return node;
  const schema: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (key === '$schema') continue;
    schema[key] = forSerializer(value);
  }
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex >= 0 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _dropped, ...rest } = schema;
      return { ...rest, ...other, nullable: true };
    }
  }
  return schema;
}

/** The JSON Schema of a zod schema's output, or null where it has none (transforms, dates). */
export function answerJsonSchema(schema: ZodType): JsonSchema | null {
  try {
    return forSerializer(toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' })) as JsonSchema;
  } catch {
    return null;
  }
}

function zodSerializer(schema: ZodType, method: string, url: string) {
  return (data: unknown) => {
    const result = safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

/** The first place where two JSON values differ, as a path of keys (never the values: they are patient data). */
function firstDifference(a: unknown, b: unknown, at: (string | number)[] = []): (string | number)[] | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference((a as JsonSchema)[key], (b as JsonSchema)[key], [...at, key]);
      if (d) return d;
    }
  }
  return at;
}

export function answerSerializerCompiler({ checkAnswers }: { checkAnswers: boolean }): FastifySerializerCompiler<ZodType> {
  return ({ schema, method, url }) => {
    // Compiled on the route's first answer, not at start-up: ~25 ms a schema, and most of the
    // error statuses' serializers are never needed.
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= compile(schema, method, url, checkAnswers);
      return serialize(data);
    };
  };
}

function compile(schema: ZodType, method: string, url: string, checkAnswers: boolean): (data: unknown) => string {
  const json = answerJsonSchema(schema);
  const checked = zodSerializer(schema, method, url);
  if (!json) return checked;
  const compiled = fastJson(json as unknown as Parameters<typeof fastJson>[0]);
  if (!checkAnswers) return compiled;
  return (data: unknown) => {
    const expected = JSON.parse(checked(data)) as unknown;
    const written = compiled(data);
    const difference = firstDifference(JSON.parse(written), expected);
    if (difference) {
      // Shaped like zod's error, so the one error handler logs where (never what) as for any mismatch.
      const cause = Object.assign(new Error(`the compiled serializer differs from the contract at ${difference.join('.')}`), {
        issues: [{ path: difference, code: 'compiled_serializer_differs' }],
      });
      throw new ResponseSerializationError(method, url, { cause: cause as never });
    }
    return written;
  };
}
