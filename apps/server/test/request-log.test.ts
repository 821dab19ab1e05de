import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTestDatabase } from './helpers/test-app.ts';

/**
 * Runs `requests` against an app logging at info level into a stream (no web build), and answers
 * what it logged, as one string.
 */
async function logOf(requests: (app: FastifyInstance) => Promise<void>): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-log-test-'));
  const database = await createTestDatabase();
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web-build'), LOG_LEVEL: 'info' });
  const app = await buildApp({ config, db: database.db, logStream: stream });
  try {
    await requests(app);
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return chunks.join('');
}

test('the request log records paths without their query string, so a reset token never reaches the log', async () => {
  const log = await logOf(async (app) => {
    // The mailed link opens the web app's reset screen (no web build here: a 404 is logged all the same).
    await app.inject({ method: 'GET', url: '/reset-password?token=secret-reset-token-123' });
    await app.inject({ method: 'GET', url: '/api/nowhere?token=secret-reset-token-123' });
  });
  expect(log).toMatch(/"url":"\/reset-password"/);
  expect(log).toMatch(/"url":"\/api\/nowhere"/);
  expect(log).not.toContain('secret-reset-token-123');
});

test('the access log writes one line per request, when it is answered: the request, the status and the time taken', async () => {
  const log = await logOf(async (app) => {
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'POST', url: '/api/tickets/verify', payload: { eventId: 'x', qrCode: 'y', day: 1 } });
  });
  const lines = log
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
  const requestLines = lines.filter((line) => line.reqId !== undefined);
  expect(requestLines.map((line) => line.msg)).toEqual(['request completed', 'request completed']);
  expect(requestLines.map((line) => [line.req?.method, line.req?.url, line.res?.statusCode])).toEqual([
    ['GET', '/api/health', 200],
    ['POST', '/api/tickets/verify', 401],
  ]);
  for (const line of requestLines) expect(line.responseTime).toBeGreaterThanOrEqual(0);
});
