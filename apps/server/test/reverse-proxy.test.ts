/**
 * Behind a real reverse proxy (Debian's nginx, started here on 127.0.0.1 with its own prefix, pid
 * and temp folders) in front of the real server process with `TRUST_PROXY=1`, the proxy headers
 * of the shipped configuration (deploy/nginx.conf, which the README and the compose file repeat)
 * make a client's own X-Forwarded-For change nothing: the rate limits count the address nginx saw
 * (docs/decisions/085). On the embedded database, or on the PostgreSQL at DATABASE_URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { createUser } from '../src/services/users.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { createPostgresTestDatabase } from './helpers/test-app.ts';

/** Requests per client address and window (RATE_LIMIT_IP_MAX) for this server. */
const IP_MAX = 20;
const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../../..');
const ACCOUNT = { email: 'gate@example.org', username: 'gate', password: 'gate-password-1', displayName: 'Gale Gate', country: 'IE' };

const cleanups: (() => Promise<void>)[] = [];
let server: ServerProcess;
let nginx: ChildProcess;
let nginxOutput = '';
/** nginx's address: every request of these tests goes through it. */
let proxyBase = '';

/** A free TCP port of 127.0.0.1 (bound, read and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The `proxy_set_header` lines of the `location /` block of an nginx configuration file. */
async function proxyHeaderLines(file: string): Promise<string[]> {
  const text = await readFile(path.join(REPOSITORY_ROOT, file), 'utf8');
  return [...text.matchAll(/^\s*(proxy_set_header\s+X-Forwarded-[\w-]+\s+[^;]+;)/gm)].map((match) => (match[1] ?? '').replace(/\s+/g, ' '));
}

/** nginx.conf for a proxy on 127.0.0.1:`port` in front of `upstream`, everything it writes under `prefix`. */
function nginxConfig(options: { prefix: string; port: number; upstream: string; headerLines: string[] }): string {
  const { prefix, port, upstream, headerLines } = options;
  return `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${upstream};
      proxy_set_header Host $host;
      ${headerLines.join('\n      ')}
    }
  }
}
`;
}

/** Starts nginx with `config` in `prefix`; resolves once it answers on `port`. */
async function startNginx(prefix: string, config: string, port: number): Promise<void> {
  await writeFile(path.join(prefix, 'nginx.conf'), config);
  nginx = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stdout?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
  nginx.stderr?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${nginxOutput}`);
    const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not answer within 15 s:\n${nginxOutput}`);
}

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-proxy-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // One account, made before the server starts (the demo seed would cost seconds for nothing here).
  let databaseUrl = '';
  if (process.env.DATABASE_URL) {
    const created = await createPostgresTestDatabase();
    cleanups.push(() => created.drop());
    databaseUrl = created.url;
  }
  const seeded = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { pgliteDir: path.join(dataDir, 'pgdata') });
  await createUser(seeded.db, ACCOUNT);
  await seeded.close();

  server = startServer({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SEED_DEMO: 'false', TRUST_PROXY: '1', RATE_LIMIT_IP_MAX: String(IP_MAX) });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  const upstream = await server.url;

  // Its own folder, readable by nginx's worker: started as root (CI), nginx runs it as `nobody`,
  // which must reach the temp folders nginx creates here for it.
  const prefix = await mkdtemp(path.join(tmpdir(), 'gatecheck-nginx-'));
  cleanups.push(() => rm(prefix, { recursive: true, force: true }));
  await chmod(prefix, 0o755);
  const port = await freePort();
  const headerLines = await proxyHeaderLines('deploy/nginx.conf');
  cleanups.push(async () => {
    if (nginx.exitCode !== null) return;
    const exited = new Promise((resolve) => nginx.once('exit', resolve));
    // SIGQUIT: nginx's graceful stop (master and worker).
    nginx.kill('SIGQUIT');
    await exited;
  });
  await startNginx(prefix, nginxConfig({ prefix, port, upstream, headerLines }), port);
  proxyBase = `http://127.0.0.1:${port}`;
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 60_000);

function post(url: string, body: unknown, forwardedFor: string): Promise<Response> {
  return fetch(`${proxyBase}/api${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify(body),
  });
}

test('the shipped nginx configurations, the README and the compose file forward the same headers', async () => {
  const shipped = await proxyHeaderLines('deploy/nginx.conf');
  expect(shipped).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
  const readme = await readFile(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');
  for (const line of shipped) expect(readme.replace(/[ \t]+/g, ' ')).toContain(line);
  expect(await proxyHeaderLines('deploy/nginx-compose.conf')).toEqual(expect.arrayContaining(shipped));
});

test('forgot-password calls with a new made-up X-Forwarded-For each are limited after the limit, as from one address', async () => {
  const statuses: number[] = [];
  for (let n = 1; n <= IP_MAX + 5; n += 1) {
    const response = await post(apiPaths.forgotPassword, { email: `someone${n}@example.org` }, `203.0.113.${n}`);
    statuses.push(response.status);
  }
  expect(statuses).toEqual([...Array<number>(IP_MAX).fill(200), ...Array<number>(5).fill(429)]);
}, 60_000);

test('an address blocked for failed sign-ins cannot sign in by claiming another one', async () => {
  for (let n = 1; n <= IP_MAX; n += 1) {
    const response = await post(apiPaths.login, { email: `nobody${n}@example.org`, password: 'wrong-password' }, `198.51.100.${n}`);
    expect(response.status).toBe(401);
  }
  const spoofed = await post(apiPaths.login, { email: ACCOUNT.email, password: ACCOUNT.password }, '192.0.2.77');
  expect(spoofed.status, nginxOutput).toBe(429);
}, 60_000);
