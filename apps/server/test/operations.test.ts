/**
 * Health, readiness and metrics (issue 14, docs/decisions/041 and 042), on the real app and a real
 * database (PGlite, or PostgreSQL under test:server:pg).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_VERSION, ApiErrorBody, apiPaths, HealthResponse, OLDEST_APP_API_VERSION, ReadyResponse } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { NOT_READY_MESSAGES } from '../src/routes/operations/index.ts';
import { demoIds, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createPostgresTestDatabase, createTestApp, createTestDatabase, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN } });
});
afterAll(async () => {
  await t.close();
});

function expectNotReady(response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }, message: string) {
  expect(response.statusCode).toBe(503);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'not_ready', message });
  expect(response.headers['cache-control']).toBe('no-store');
}

test(`health is 200 ok and readiness 200 ready on a migrated database, without a session (${TEST_DATABASE_KIND})`, async () => {
  const health = await t.app.inject({ method: 'GET', url: api(apiPaths.health) });
  expect(health.statusCode).toBe(200);
  expect(HealthResponse.parse(health.json())).toEqual({ status: 'ok', apiVersion: API_VERSION, oldestAppApiVersion: OLDEST_APP_API_VERSION });
  const ready = await t.app.inject({ method: 'GET', url: api(apiPaths.ready) });
  expect(ready.statusCode).toBe(200);
  expect(ReadyResponse.parse(ready.json())).toEqual({ status: 'ready' });
  expect(ready.headers['cache-control']).toBe('no-store');
});

test('readiness is 503 not_ready once a shutdown has begun; health stays 200', async () => {
  t.app.lifecycle.isStopping = true;
  try {
    expectNotReady(await t.app.inject({ method: 'GET', url: api(apiPaths.ready) }), NOT_READY_MESSAGES.stopping);
    expect((await t.app.inject({ method: 'GET', url: api(apiPaths.health) })).statusCode).toBe(200);
  } finally {
    t.app.lifecycle.isStopping = false;
  }
  expect((await t.app.inject({ method: 'GET', url: api(apiPaths.ready) })).statusCode).toBe(200);
});

test('readiness is 503 on a database not migrated yet, 200 once migrated, 503 once it stops answering', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-ready-'));
  // An empty database, opened the way MIGRATE_ON_START=false opens it.
  const created = process.env.DATABASE_URL ? await createPostgresTestDatabase() : undefined;
  const database = await openDatabase(created ? { databaseUrl: created.url, poolSize: 2 } : { inMemory: true }, { migrate: false });
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'none'), LOG_LEVEL: 'silent', MIGRATE_ON_START: 'false' });
  const app = await buildApp({ config, db: database.db });
  try {
    expectNotReady(await app.inject({ method: 'GET', url: api(apiPaths.ready) }), NOT_READY_MESSAGES.not_migrated);
    expect(await database.exclusively(() => database.migrate())).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: api(apiPaths.ready) })).statusCode).toBe(200);
    await database.close();
    expectNotReady(await app.inject({ method: 'GET', url: api(apiPaths.ready) }), NOT_READY_MESSAGES.unreachable);
    expect((await app.inject({ method: 'GET', url: api(apiPaths.health) })).statusCode).toBe(200);
  } finally {
    await app.close();
    await database.close();
    await created?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('GET /metrics wants the bearer token: none or a wrong one is 401, the right one gets Prometheus text', async () => {
  const none = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(none.statusCode).toBe(401);
  expect(none.json()).toMatchObject({ code: 'unauthenticated' });
  expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
  const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
  expect(wrong.statusCode).toBe(401);
  const right = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(right.statusCode).toBe(200);
  expect(right.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(right.body).toContain('# TYPE http_request_duration_seconds histogram');
  expect(right.body).toMatch(/^gatecheck_process_cpu_seconds_total \d/m);
  expect(right.body).toMatch(/^gatecheck_nodejs_eventloop_lag_seconds \d/m);
});

test('verify verdicts by reason and check-ins per event day are counted, and request durations by route pattern', async () => {
  const token = await login(t.app, DEMO_USER.email, DEMO_USER.password);
  const { liveEventId } = await demoIds(t.database.db);
  const pick = ticketPicker(t.demo?.tickets ?? []);
  const ticket = pick((candidate) => candidate.eventTitle === DEMO_LIVE_EVENT_TITLE && candidate.days === null && !candidate.isRevoked);
  const verify = (qrCode: string) =>
    t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId: liveEventId, qrCode, day: DEMO_TODAY_DAY_NUMBER } });
  expect((await verify(ticket.code)).json()).toMatchObject({ isValid: true });
  expect((await verify(ticket.code)).json()).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  expect((await verify('NO-SUCH-TICKET')).json()).toMatchObject({ isValid: false, reason: 'not_found' });

  const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
  expect(text).toContain('gatecheck_verify_verdicts_total{source="scan",verdict="approved",reason="none"} 1');
  expect(text).toContain('gatecheck_verify_verdicts_total{source="scan",verdict="denied",reason="already_checked_in"} 1');
  expect(text).toContain('gatecheck_verify_verdicts_total{source="scan",verdict="denied",reason="not_found"} 1');
  expect(text).toContain(`gatecheck_check_ins_total{event_id="${liveEventId}",day="${DEMO_TODAY_DAY_NUMBER}"} 1`);
  expect(text).toContain('http_request_duration_seconds_count{method="POST",route="/api/tickets/verify",status_code="200"} 3');
  // Route patterns, never concrete paths with ids in them.
  expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
});

test('without METRICS_TOKEN, /metrics is a 404 like any unknown path, whatever the header', async () => {
  const plain = await createTestApp({ seed: false });
  try {
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const response = await plain.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
  } finally {
    await plain.close();
  }
});

test('on PostgreSQL the pool usage is a metric (PGlite has no pool)', async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-pool-'));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'none'), LOG_LEVEL: 'silent', METRICS_TOKEN });
  const app = await buildApp({ config, db: database.db, poolStats: database.poolStats });
  try {
    const text = (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    if (database.kind === 'postgres') {
      expect(text).toMatch(/^gatecheck_db_pool_connections\{state="total"\} \d+$/m);
      expect(text).toMatch(/^gatecheck_db_pool_connections\{state="waiting"\} 0$/m);
    } else {
      expect(database.poolStats).toBeUndefined();
      expect(text).not.toContain('gatecheck_db_pool_connections');
    }
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
