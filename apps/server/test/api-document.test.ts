/**
 * The check every server test runs on every answer (helpers/api-document.ts): it must catch an
 * answer the OpenAPI document does not describe, or the conformance of the suite proves nothing.
 */
import { apiPaths, manageTicketRoutes } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { answerChecker, type ObservedAnswer } from './helpers/api-document.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let check: (answer: ObservedAnswer) => string[];
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await t.app.ready();
  check = answerChecker(t.app.swagger());
});
afterAll(async () => {
  await t.close();
});

const SECURITY_HEADERS = { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };

function verifyAnswer(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): ObservedAnswer {
  return {
    method: 'POST',
    routeUrl: api(apiPaths.verifyTicket),
    url: api(apiPaths.verifyTicket),
    status,
    contentType,
    body: JSON.stringify(body),
    headers: SECURITY_HEADERS,
  };
}

test('answers as the document describes them pass', () => {
  expect(check(verifyAnswer(200, { isValid: false, reason: 'not_found', message: 'No ticket with this code exists.' }))).toEqual([]);
  expect(check(verifyAnswer(401, { code: 'unauthenticated', message: 'You are not signed in.' }))).toEqual([]);
  expect(check(verifyAnswer(400, { code: 'validation_failed', message: 'Invalid body.day', field: 'body.day' }))).toEqual([]);
});

test('a status the document does not list for the operation is caught', () => {
  expect(check(verifyAnswer(409, { code: 'conflict', message: 'x' })).join()).toMatch(/status 409 is not in the document for verifyTicket/);
});

test('a body that does not match the declared schema is caught', () => {
  expect(check(verifyAnswer(200, { isValid: false, reason: 'because' })).join()).toMatch(/body does not match/);
  expect(check(verifyAnswer(200, { isValid: true, eventName: 42 })).join()).toMatch(/body does not match/);
});

test('an undeclared content type and an error outside { code, message } or without security headers are caught', () => {
  expect(check(verifyAnswer(200, { isValid: true }, 'text/plain')).join()).toMatch(/content type text\/plain is not documented/);
  expect(check(verifyAnswer(400, { error: 'Bad Request', statusCode: 400 })).join()).toMatch(/not \{ code, message \}/);
  const bare = { ...verifyAnswer(404, { code: 'not_found', message: 'No such route.' }), routeUrl: undefined, headers: {} };
  expect(check(bare).join()).toMatch(/without the x-content-type-options header/);
});

test("a file or a stream is checked by its status and content type (its bytes are not), and an NDJSON answer line by line", () => {
  const routeUrl = api(manageTicketRoutes.ticketQr);
  const png: ObservedAnswer = { method: 'GET', routeUrl, url: routeUrl, status: 200, contentType: 'image/png', body: undefined, headers: SECURITY_HEADERS };
  expect(check(png)).toEqual([]);
  expect(check({ ...png, contentType: 'application/octet-stream' }).join()).toMatch(/content type application\/octet-stream is not documented \(image\/png\)/);
  const importUrl = api(manageTicketRoutes.importTickets);
  const lines: ObservedAnswer = { method: 'POST', routeUrl: importUrl, url: importUrl, status: 200, contentType: 'application/x-ndjson', body: '{"type":"progress","rows":2,"bytes":40}\n', headers: SECURITY_HEADERS };
  expect(check(lines)).toEqual([]);
  expect(check({ ...lines, body: '{"type":"progress","rows":2,"bytes":40}\n{"type":"later"}\n' }).join()).toMatch(/a line does not match/);
});

test.fails('an answer outside the document fails the test that produced it', async () => {
  const own = await createTestApp({ seed: false });
  try {
    // A route the document describes with a 200 only, answering a status it does not list.
    own.app.get(api('/users/teapot'), { schema: { operationId: 'teapot' } }, async (_request, reply) => reply.status(418).send({ code: 'teapot', message: 'I am a teapot.' }));
    const response = await own.app.inject({ method: 'GET', url: api('/users/teapot') });
    expect(response.statusCode).toBe(418);
  } finally {
    await own.app.close();
    await own.database.close();
  }
});
