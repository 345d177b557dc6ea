import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerJsonSchema, answerSerializerCompiler } from './compiledAnswers';
import errors from './errors';

const Answer = z.object({
  id: z.string(),
  count: z.number().int(),
  zone: z.object({ id: z.string(), source: z.string() }).nullable(),
  note: z.string().nullable(),
  extra: z.object({ known: z.string() }).loose(),
  items: z.array(z.union([z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b'), value: z.number() })])),
});

async function appAnswering(data: unknown, checkAnswers: boolean) {
  const app = Fastify();
  app.setSerializerCompiler(answerSerializerCompiler({ checkAnswers }));
  await app.register(errors);
  app.get('/', { schema: { response: { 200: Answer } } }, async () => data);
  await app.ready();
  return app;
}

const good = {
  id: 'u1',
  count: 3,
  zone: null,
  note: 'x',
  extra: { known: 'k', kept: 1 },
  items: [{ kind: 'a' }, { kind: 'b', value: 2 }],
  // Not in the contract: neither serializer writes it.
  secret: 'internal',
};

describe('answers written by the compiled serializer', () => {
  it('writes what the contract would: unknown fields of strict objects dropped, of loose ones kept, nulls and unions as given', async () => {
    for (const check of [false, true]) {
      const app = await appAnswering(good, check);
      const r = await app.inject('/');
      expect(r.statusCode).toBe(200);
      const { secret: _secret, ...expected } = good;
      expect(r.json()).toEqual(expected);
      await app.close();
    }
  });

  it('with checking on (the tests), an answer outside the contract is a 500, not written', async () => {
    for (const wrong of [{ ...good, count: 1.5 }, { ...good, id: 7 }, { ...good, zone: { id: 'UTC' } }, { ...good, items: [{ kind: 'c' }] }]) {
      const app = await appAnswering(wrong, true);
      const r = await app.inject('/');
      expect(r.statusCode, JSON.stringify(wrong)).toBe(500);
      expect(r.json()).toEqual({ detail: 'Internal server error' });
      await app.close();
    }
  });

  it('turns "X or null" into nullable (no per-call branch search) and keeps real unions', () => {
    const json = answerJsonSchema(Answer) as { properties: Record<string, Record<string, unknown>> };
    expect(json.properties.zone).toMatchObject({ type: 'object', nullable: true });
    expect(json.properties.zone).not.toHaveProperty('anyOf');
    expect(json.properties.items).toMatchObject({ type: 'array', items: { anyOf: [expect.anything(), expect.anything()] } });
  });

  it('keeps zod for a schema without a JSON Schema form', async () => {
    expect(answerJsonSchema(z.object({ at: z.date() }))).toBeNull();
    const app = Fastify();
    app.setSerializerCompiler(answerSerializerCompiler({ checkAnswers: false }));
    app.get('/', { schema: { response: { 200: z.object({ at: z.date() }) } } }, async () => ({ at: new Date('2026-11-27T10:00:00Z') }));
    const r = await app.inject('/');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ at: '2026-11-27T10:00:00.000Z' });
    await app.close();
  });
});
