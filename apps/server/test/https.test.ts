/**
 * `HTTPS=true` (issue 15 item 10): the real entry point in a child process serves TLS with a
 * generated self-signed certificate (kept and reused) or with the operator's TLS_CERT/TLS_KEY.
 */
import { X509Certificate } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { apiPaths } from '@gatecheck/contract';
import selfsigned from 'selfsigned';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { DEMO_USER, seedDemoData } from '../src/db/seed.ts';
import { type ServerProcess, startServer } from './helpers/server-process.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-https-'));
  // The demo users without the ticket PNGs (they take a while); the server then finds a non-empty database.
  const seeded = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  await seedDemoData(seeded.db);
  await seeded.close();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Every server a test started; one left running by a failed assertion is killed after the test. */
const started: ServerProcess[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
});

function start(env: Record<string, string>): ServerProcess {
  const server = startServer(env);
  started.push(server);
  return server;
}

/** The SHA-256 fingerprint of the certificate the server at `url` presents in its TLS handshake. */
function presentedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** A POST over https that trusts exactly `trustedCert` (so the name check against 127.0.0.1 is real). */
function postJson(url: string, body: unknown, trustedCert: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method: 'POST', ca: trustedCert, headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.once('error', reject);
    request.end(JSON.stringify(body));
  });
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

test('HTTPS=true alone: a self-signed certificate for localhost and the LAN, printed with its fingerprint, kept in DATA_DIR/tls and reused; the session cookie is Secure', async () => {
  const server = start({ DATA_DIR: dataDir, HTTPS: 'true' });
  const url = await server.url;
  expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const certPem = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
  const certificate = new X509Certificate(certPem);
  expect(server.output()).toContain(`SHA-256 fingerprint: ${certificate.fingerprint256}`);
  expect(await presentedFingerprint(url)).toBe(certificate.fingerprint256);
  expect(certificate.checkHost('localhost')).toBe('localhost');
  expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(statSync(path.join(dataDir, 'tls', 'key.pem')).mode & 0o077).toBe(0);

  // Trusting only this certificate, as a phone does once it is accepted.
  const signIn = await postJson(`${url}/api${apiPaths.login}`, { email: DEMO_USER.email, password: DEMO_USER.password, useCookie: true }, certPem);
  expect(signIn.status).toBe(200);
  expect(String(signIn.headers['set-cookie'])).toMatch(/;\s*Secure/i);
  await stop(server);

  const restarted = start({ DATA_DIR: dataDir, HTTPS: 'true' });
  const restartedUrl = await restarted.url;
  expect(await presentedFingerprint(restartedUrl)).toBe(certificate.fingerprint256);
  await stop(restarted);
}, 120_000);

test('HTTPS=true with TLS_CERT and TLS_KEY serves that certificate; a key of another certificate is refused at start', async () => {
  const subject = [{ name: 'commonName', value: 'gate.example.com' }];
  const extensions = [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }];
  const own = await selfsigned.generate(subject, { keyType: 'ec', algorithm: 'sha256', extensions });
  const other = await selfsigned.generate(subject, { keyType: 'ec', algorithm: 'sha256', extensions });
  const certFile = path.join(dataDir, 'gate.pem');
  await writeFile(certFile, own.cert);
  await writeFile(path.join(dataDir, 'gate.key'), own.private);
  await writeFile(path.join(dataDir, 'other.key'), other.private);

  const server = start({ DATA_DIR: dataDir, HTTPS: 'true', TLS_CERT: certFile, TLS_KEY: path.join(dataDir, 'gate.key') });
  const url = await server.url;
  const fingerprint = new X509Certificate(own.cert).fingerprint256;
  expect(await presentedFingerprint(url)).toBe(fingerprint);
  expect(server.output()).toContain(`SHA-256 fingerprint: ${fingerprint}`);
  await stop(server);

  const mismatched = start({ DATA_DIR: dataDir, HTTPS: 'true', TLS_CERT: certFile, TLS_KEY: path.join(dataDir, 'other.key') });
  await expect(mismatched.url).rejects.toThrow(/HTTPS: the TLS key does not belong to the certificate/);
  expect((await mismatched.exited).code).toBe(1);
}, 120_000);
