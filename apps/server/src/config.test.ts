import path from 'node:path';
import { expect, test } from 'vitest';
import { assertServable, DEFAULT_SESSION_TTL_MS, loadConfig } from './config.ts';

test('defaults: port 8080 on 127.0.0.1, ./data in the folder npm was started from, demo seeding on', () => {
  const config = loadConfig({ INIT_CWD: '/home/someone/gatecheck' });
  expect(config).toMatchObject({
    port: 8080,
    host: '127.0.0.1',
    dataDir: '/home/someone/gatecheck/data',
    databaseUrl: undefined,
    seedDemo: true,
    trustProxy: { kind: 'none' },
    sessionTtlMs: DEFAULT_SESSION_TTL_MS,
    allowSignup: false,
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
    TRUST_PROXY: '2',
    SESSION_TTL_DAYS: '7',
    WEB_DIST_DIR: 'web',
    INIT_CWD: '/x',
    ALLOW_SIGNUP: 'true',
  });
  expect(config).toMatchObject({
    port: 9000,
    host: '0.0.0.0',
    dataDir: '/srv/gatecheck',
    databaseUrl: 'postgres://u:p@db/gatecheck',
    seedDemo: false,
    trustProxy: { kind: 'hops', hops: 2 },
    sessionTtlMs: 7 * 24 * 60 * 60 * 1000,
    webDistDir: '/x/web',
    allowSignup: true,
  });
});

test('an empty variable counts as unset', () => {
  expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 8080 });
});

test('invalid values are refused with the variable named', () => {
  expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  expect(() => loadConfig({ ALLOW_SIGNUP: 'sometimes' })).toThrow(/ALLOW_SIGNUP/);
});

test('in development (the default) the demo is seeded and the native app may call; in production neither unless set', () => {
  expect(loadConfig({})).toMatchObject({ deployment: 'development', seedDemo: true, corsOrigins: ['capacitor://localhost', 'https://localhost', 'http://localhost'] });
  // The Docker image sets NODE_ENV=production: production unless DEPLOYMENT says otherwise.
  expect(loadConfig({ NODE_ENV: 'production', CORS_ORIGINS: 'none' })).toMatchObject({ deployment: 'production', seedDemo: false, corsOrigins: [] });
  expect(loadConfig({ DEPLOYMENT: 'production', CORS_ORIGINS: 'capacitor://localhost,https://localhost' })).toMatchObject({
    seedDemo: false,
    corsOrigins: ['capacitor://localhost', 'https://localhost'],
  });
  expect(loadConfig({ DEPLOYMENT: 'production', CORS_ORIGINS: 'none', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  expect(loadConfig({ NODE_ENV: 'production', DEPLOYMENT: 'development' })).toMatchObject({ deployment: 'development', seedDemo: true });
  // Outside development nobody is trusted cross-origin by default: the server needs the operator to
  // say who, or none. The admin CLI and the migration step read the same configuration without it.
  expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ deployment: 'production', corsOrigins: [], isCorsOriginsSet: false });
  expect(() => assertServable(loadConfig({ NODE_ENV: 'production' }))).toThrow(
    /CORS_ORIGINS: set it outside development .*capacitor:\/\/localhost,https:\/\/localhost .*or none/,
  );
  expect(() => assertServable(loadConfig({ DEPLOYMENT: 'production' }))).toThrow(/CORS_ORIGINS: set it outside development/);
  expect(() => assertServable(loadConfig({ DEPLOYMENT: 'production', CORS_ORIGINS: 'none' }))).not.toThrow();
  expect(() => assertServable(loadConfig({}))).not.toThrow();
  expect(() => loadConfig({ DEPLOYMENT: 'staging' })).toThrow(/DEPLOYMENT/);
});

test('TRUST_PROXY takes a number of proxies or their addresses, and refuses true (any client could pick its address)', () => {
  expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
  expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toEqual({ kind: 'none' });
  expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toEqual({ kind: 'none' });
  expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,loopback,fd00::/8' }).trustProxy).toEqual({
    kind: 'addresses',
    addresses: ['127.0.0.1', '10.0.0.0/8', 'loopback', 'fd00::/8'],
  });
  expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would believe any X-Forwarded-For a client sends; set the number of proxies/);
  expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY: true would believe/);
  expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY: at most 10 proxies/);
  expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33,nginx' })).toThrow(/TRUST_PROXY: .*not an address: 10.0.0.0\/33, nginx/);
});

test('HTTPS=true serves TLS with a self-signed certificate kept in DATA_DIR/tls, or with TLS_CERT/TLS_KEY files', () => {
  expect(loadConfig({ INIT_CWD: '/x' }).tls).toBeUndefined();
  expect(loadConfig({ HTTPS: 'true', DATA_DIR: 'd', INIT_CWD: '/x' })).toMatchObject({
    tls: { kind: 'self-signed', dir: '/x/d/tls' },
    publicUrl: 'https://localhost:8080',
  });
  expect(loadConfig({ HTTPS: 'true', TLS_CERT: 'certs/gate.pem', TLS_KEY: '/etc/gate.key', INIT_CWD: '/x' }).tls).toEqual({
    kind: 'files',
    certFile: '/x/certs/gate.pem',
    keyFile: '/etc/gate.key',
  });
});

test('a TLS certificate without its key, or without HTTPS=true, is refused', () => {
  expect(() => loadConfig({ HTTPS: 'true', TLS_CERT: '/etc/gate.pem' })).toThrow(/TLS_KEY: set both TLS_CERT and TLS_KEY/);
  expect(() => loadConfig({ TLS_CERT: '/etc/gate.pem', TLS_KEY: '/etc/gate.key' })).toThrow(/HTTPS: TLS_CERT and TLS_KEY are used only with HTTPS=true/);
  expect(() => loadConfig({ HTTPS: 'sure' })).toThrow(/HTTPS/);
});

test('operations settings (issue 14): migrate on start, metrics token, log format, shutdown delay', () => {
  const defaults = loadConfig({}, false);
  expect(defaults).toMatchObject({ migrateOnStart: true, metricsToken: undefined, logFormat: 'json', shutdownDelayMs: 0 });
  expect(loadConfig({}, true).logFormat).toBe('pretty');
  expect(loadConfig({ NODE_ENV: 'production', CORS_ORIGINS: 'none' }, true).logFormat).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
  const set = loadConfig({ MIGRATE_ON_START: 'false', METRICS_TOKEN: 'a-long-scrape-token-1234', SHUTDOWN_DELAY_SECONDS: '5' });
  expect(set).toMatchObject({ migrateOnStart: false, metricsToken: 'a-long-scrape-token-1234', shutdownDelayMs: 5000 });
});

test('invalid operations settings are refused by name', () => {
  expect(() => loadConfig({ MIGRATE_ON_START: 'sometimes' })).toThrow(/MIGRATE_ON_START/);
  expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, sixteen+' })).toThrow(/METRICS_TOKEN/);
  expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
});
