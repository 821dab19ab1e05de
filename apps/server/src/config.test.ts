import path from 'node:path';
import { expect, test } from 'vitest';
import { DEFAULT_SESSION_TTL_MS, loadConfig } from './config.ts';

test('defaults: port 8080 on 127.0.0.1, ./data in the folder npm was started from, demo seeding on', () => {
  const config = loadConfig({ INIT_CWD: '/home/someone/gatecheck' });
  expect(config).toMatchObject({
    port: 8080,
    host: '127.0.0.1',
    dataDir: '/home/someone/gatecheck/data',
    databaseUrl: undefined,
    seedDemo: true,
    trustProxy: false,
    sessionTtlMs: DEFAULT_SESSION_TTL_MS,
  });
  expect(config.webDistDir).toBe(path.resolve(import.meta.dirname, '../../web/dist'));
});

test('every variable is read and validated', () => {
  const config = loadConfig({
    PORT: '9000',
    HOST: '0.0.0.0',
    DATA_DIR: '/srv/gatecheck',
    DATABASE_URL: 'postgres://u:p@db/gatecheck',
    SEED_DEMO: 'false',
    TRUST_PROXY: 'true',
    SESSION_TTL_DAYS: '7',
    WEB_DIST_DIR: 'web',
    INIT_CWD: '/x',
  });
  expect(config).toMatchObject({
    port: 9000,
    host: '0.0.0.0',
    dataDir: '/srv/gatecheck',
    databaseUrl: 'postgres://u:p@db/gatecheck',
    seedDemo: false,
    trustProxy: true,
    sessionTtlMs: 7 * 24 * 60 * 60 * 1000,
    webDistDir: '/x/web',
  });
});

test('an empty variable counts as unset', () => {
  expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 8080 });
});

test('invalid values are refused with the variable named', () => {
  expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
});
