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

describe('SERVICE_WORKERS', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['1', 1],
    [' 4 ', 4],
    ['64', 64],
  ])('%j → %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { SERVICE_WORKERS: value }).SERVICE_WORKERS).toBe(expected);
  });

  it.each(['0', '65', '1.5', 'two', '-1'])('%j stops start-up with one line naming it', (value) => {
    expect(() => loadConfig({ SERVICE_WORKERS: value })).toThrow('invalid configuration: SERVICE_WORKERS must be a whole number from 1 to 64');
  });
});
