/** The server address rules (issue 9 item 5) and the check that a Gatecheck server answers. */
import { apiPaths } from '@gatecheck/contract';
import { delay, http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { server } from '@/test/msw-server.ts';
import {
  checkServerAddress,
  currentApiBaseUrl,
  displayServerAddress,
  isPrivateHost,
  loadServerAddress,
  parseServerAddress,
  saveServerAddress,
  serverAddressMessage,
} from './server-address.ts';

test('https anywhere is accepted; the API base ends in /api whether or not it was typed', () => {
  expect(parseServerAddress(' https://gate.example.com ')).toEqual({ apiBaseUrl: 'https://gate.example.com/api' });
  expect(parseServerAddress('https://gate.example.com/api/')).toEqual({ apiBaseUrl: 'https://gate.example.com/api' });
  expect(parseServerAddress('https://example.com:8443/gatecheck')).toEqual({ apiBaseUrl: 'https://example.com:8443/gatecheck/api' });
  // A bare host means https.
  expect(parseServerAddress('gate.example.com')).toEqual({ apiBaseUrl: 'https://gate.example.com/api' });
  expect(displayServerAddress('https://gate.example.com/api')).toBe('https://gate.example.com');
});

test('http is accepted only on a private network', () => {
  for (const address of ['http://192.168.1.20:3000', 'http://10.0.0.5', 'http://172.16.4.2', 'http://127.0.0.1:3000', 'http://localhost:3000', 'http://gate.local', 'http://[fd12::1]:3000']) {
    expect(parseServerAddress(address), address).toEqual({ apiBaseUrl: expect.stringMatching(/^http:\/\/.+\/api$/) });
  }
  for (const address of ['http://gate.example.com', 'http://8.8.8.8', 'http://172.32.0.1', 'http://192.169.0.1', 'http://[2001:db8::1]']) {
    expect(parseServerAddress(address), address).toEqual({ problem: 'insecure' });
  }
});

test('an empty or unusable address says what is wrong', () => {
  expect(parseServerAddress('   ')).toEqual({ problem: 'empty' });
  expect(parseServerAddress('ftp://gate.example.com')).toEqual({ problem: 'invalid' });
  expect(parseServerAddress('https://gate example.com')).toEqual({ problem: 'invalid' });
  expect(parseServerAddress('https://gate.example.com/?next=1')).toEqual({ problem: 'invalid' });
  expect(serverAddressMessage('insecure')).toMatch(/private network/);
});

test('private hosts: loopback, RFC 1918, link-local, unique-local IPv6, .local', () => {
  expect(['localhost', '127.0.0.1', '10.1.2.3', '172.31.255.255', '192.168.0.1', '169.254.1.1', '::1', 'fd00::1', 'fe80::1', 'door.local'].every(isPrivateHost)).toBe(true);
  expect(['example.com', '172.15.0.1', '11.0.0.1', '2001:db8::1', 'local.example.com'].some(isPrivateHost)).toBe(false);
});

test('a Gatecheck server answering its sign-in options passes the check', async () => {
  server.use(http.get('https://gate.example.com/api' + apiPaths.authOptions, () => HttpResponse.json({ isSignUpAllowed: false })));
  await expect(checkServerAddress('https://gate.example.com/api')).resolves.toBeNull();
});

test('an address where no Gatecheck server answers fails the check, quickly', async () => {
  server.use(
    http.get('https://other.example.com/api' + apiPaths.authOptions, () => HttpResponse.json({ hello: 'world' })),
    http.get('https://missing.example.com/api' + apiPaths.authOptions, () => new HttpResponse('Not Found', { status: 404 })),
    http.get('https://down.example.com/api' + apiPaths.authOptions, () => HttpResponse.error()),
  );
  await expect(checkServerAddress('https://other.example.com/api')).resolves.toBe('unreachable');
  await expect(checkServerAddress('https://missing.example.com/api')).resolves.toBe('unreachable');
  await expect(checkServerAddress('https://down.example.com/api')).resolves.toBe('unreachable');
});

test('a server that never answers is given up on after the timeout', async () => {
  server.use(
    http.get('https://slow.example.com/api' + apiPaths.authOptions, async () => {
      await delay('infinite');
      return HttpResponse.json({ isSignUpAllowed: false });
    }),
  );
  await expect(checkServerAddress('https://slow.example.com/api', 50)).resolves.toBe('timeout');
  expect(serverAddressMessage('timeout')).toBe('The server did not answer within 8 seconds. Check the address and the network.');
});

test('in a browser the API base is the build one, whatever is stored', async () => {
  localStorage.setItem('serverUrl', 'https://elsewhere.example.com/api');
  await loadServerAddress();
  expect(currentApiBaseUrl()).toBe('/api');
});

test('loading the address starts again from the build one, whatever was used before (a fresh start)', async () => {
  await saveServerAddress('https://gate.example.com/api');
  expect(currentApiBaseUrl()).toBe('https://gate.example.com/api');
  await loadServerAddress();
  expect(currentApiBaseUrl()).toBe('/api');
});
