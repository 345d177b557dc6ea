import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['false', undefined],
    ['0', undefined],
    // Not Fastify's `true` (every hop): the client's own first X-Forwarded-For entry would win.
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['127.0.0.1, 10.0.0.0/8,loopback', ['127.0.0.1', '10.0.0.0/8', 'loopback']],
  ])('%j → %j (what Fastify trusts)', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});
