/**
 * Ill-formed text in every field of every route (issue 15 item 18): lone UTF-16 surrogates (valid
 * JSON such as `"☁\udc4c"`, as a camera decoding a damaged code can produce) and NUL characters,
 * which PostgreSQL cannot store. A scanned code that cannot be a ticket is a DENIED verdict
 * (`not_found`) logged with a safe rendering; any other field is a 400 naming it; nothing is a 5xx.
 * Runs on PGlite, and on PostgreSQL in `npm run test:server:pg`.
 */
import { ApiErrorBody, apiPaths, isStorableText, organizationEventsPath, renderTextSafely, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scanLog } from '../src/db/schema.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { UNTHROTTLED_ENV } from './bad-input-arbitraries.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

/** Generated values per field of each route. */
const RUNS_PER_FIELD = 400;

let t: TestApp;
let token: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
let ticketCodes: string[];
beforeAll(async () => {
  t = await createTestApp({ env: UNTHROTTLED_ENV });
  token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  ids = await demoIds(t.database.db);
  ticketCodes = (t.demo?.tickets ?? []).map((ticket) => ticket.code);
});
afterAll(async () => {
  await t.close();
});

/** One UTF-16 code unit or code point: any code point, a lone surrogate half, or NUL. */
const textUnit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)) },
  { weight: 1, arbitrary: fc.constant('\u0000') },
);

/** Arbitrary strings, lone surrogates and NULs included; often a plausible value with one inserted. */
function textFor(plausible: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: textUnit, maxLength: 24 }),
    fc.tuple(fc.nat({ max: plausible.length }), fc.string({ unit: textUnit, minLength: 1, maxLength: 3 })).map(
      ([at, inserted]) => `${plausible.slice(0, at)}${inserted}${plausible.slice(at)}`,
    ),
  );
}

/** `text` as a URL component, a lone surrogate as its 3 WTF-8 bytes (encodeURIComponent refuses it). */
function percentEncode(text: string): string {
  let out = '';
  for (const character of text) {
    if (character.isWellFormed()) {
      out += encodeURIComponent(character);
      continue;
    }
    const unit = character.charCodeAt(0);
    out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  }
  return out;
}

/** A JSON route: its URL, whether it needs the session, and a valid body whose fields get the text. */
interface JsonRoute {
  url: string;
  signedIn: boolean;
  body: () => Record<string, unknown>;
}

const JSON_ROUTES: readonly JsonRoute[] = [
  { url: api(apiPaths.login), signedIn: false, body: () => ({ email: DEMO_USER.email, password: 'not-the-password' }) },
  {
    url: api(apiPaths.register),
    signedIn: false,
    body: () => ({ name: 'Nia Gate', username: 'nia.gate', email: 'nia@example.org', password: 'long-enough-password', country: 'IE' }),
  },
  // A wrong current password: a generated new one is never set on the demo account.
  { url: api(apiPaths.changePassword), signedIn: true, body: () => ({ currentPassword: 'not-the-password', newPassword: 'another-password' }) },
  { url: api(apiPaths.forgotPassword), signedIn: false, body: () => ({ email: 'nobody@example.org' }) },
  { url: api(apiPaths.resetPassword), signedIn: false, body: () => ({ token: 'a'.repeat(43), newPassword: 'another-password' }) },
  { url: api(apiPaths.verifyTicket), signedIn: true, body: () => ({ eventId: ids.liveEventId, qrCode: ticketCodes[0] ?? 'GC-X', day: 1, scanId: crypto.randomUUID() }) },
];

/** The answer: never a 5xx; an error is `{ code, message }`. */
function expectNoServerError(status: number, body: string, what: string): void {
  expect(status, `${what}: ${body}`).toBeLessThan(500);
  if (status >= 400 && body.startsWith('{')) ApiErrorBody.parse(JSON.parse(body));
}

async function scanLogRows(code: string): Promise<number> {
  const rows = await t.database.db
    .select({ id: scanLog.id })
    .from(scanLog)
    .where(and(eq(scanLog.code, code), eq(scanLog.eventId, ids.liveEventId)));
  return rows.length;
}

test(`a scanned code with a lone surrogate is DENIED as unknown and logged with a safe rendering (${TEST_DATABASE_KIND})`, async () => {
  for (const qrCode of ['☁\udc4c', 'GC-\ud800ABC', `${ticketCodes[1] ?? 'GC-Y'}\u0000`]) {
    const rendered = renderTextSafely(qrCode);
    const before = await scanLogRows(rendered);
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.verifyTicket),
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ eventId: ids.liveEventId, qrCode, day: 1 }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(VerifyTicketResponse.parse(response.json())).toMatchObject({ isValid: false, reason: 'not_found' });
    expect(await scanLogRows(rendered), JSON.stringify(rendered)).toBe(before + 1);
  }
  expect(renderTextSafely('☁\udc4c')).toBe('☁\\uDC4C');
});

// A lone surrogate, and a NUL (which PostgreSQL cannot store: it once reached the database-backed
// rate-limit counter of /auth/register's email as a 500).
test(`ill-formed text in any other field is a 400 naming the field (${TEST_DATABASE_KIND})`, async () => {
  for (const text of ['ok\udc4c', 'ok\u0000']) {
    for (const route of JSON_ROUTES) {
      for (const field of Object.keys(route.body())) {
        if (field === 'qrCode' || field === 'day') continue;
        const response = await t.app.inject({
          method: 'POST',
          url: route.url,
          headers: { ...(route.signedIn ? bearer(token) : {}), 'content-type': 'application/json' },
          payload: JSON.stringify({ ...route.body(), [field]: text }),
        });
        expect(response.statusCode, `${route.url} ${field} ${JSON.stringify(text)}: ${response.body}`).toBe(400);
        expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field: `body.${field}` });
      }
    }
  }
});

test(`${RUNS_PER_FIELD} generated strings in every text field of every JSON route: never a 5xx (${TEST_DATABASE_KIND})`, async () => {
  for (const route of JSON_ROUTES) {
    for (const [field, plausible] of Object.entries(route.body())) {
      if (typeof plausible !== 'string') continue;
      await fc.assert(
        fc.asyncProperty(textFor(plausible), async (text) => {
          const before = field === 'qrCode' ? await scanLogRows(renderTextSafely(text.trim())) : 0;
          const response = await t.app.inject({
            method: 'POST',
            url: route.url,
            headers: { ...(route.signedIn ? bearer(token) : {}), 'content-type': 'application/json' },
            payload: JSON.stringify({ ...route.body(), [field]: text }),
          });
          expectNoServerError(response.statusCode, response.body, `${route.url} ${field} ${JSON.stringify(text)}`);
          const isScannedCode = field === 'qrCode';
          if (!isStorableText(text) && !isScannedCode) {
            expect(response.statusCode).toBe(400);
            expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field: `body.${field}` });
          }
          if (isScannedCode && response.statusCode === 200) {
            const verdict = VerifyTicketResponse.parse(response.json());
            if (!isStorableText(text)) expect(verdict).toMatchObject({ isValid: false, reason: 'not_found' });
            // Never a missing log row: the attempt is logged under its safe rendering.
            expect(await scanLogRows(renderTextSafely(text.trim()))).toBe(before + 1);
          }
        }),
        { numRuns: RUNS_PER_FIELD },
      );
    }
  }
}, 600_000);

test(`${RUNS_PER_FIELD} generated strings in the path, query and form fields of every other route: never a 5xx (${TEST_DATABASE_KIND})`, async () => {
  const requests: ((text: string) => InjectOptions)[] = [
    (text) => ({ method: 'GET', url: api(organizationEventsPath('x')).replace(/x$/, percentEncode(text || 'x')), headers: bearer(token) }),
    (text) => ({ method: 'GET', url: `${api(apiPaths.usersMe)}?q=${percentEncode(text)}`, headers: bearer(token) }),
    (text) => ({ method: 'GET', url: `${api(apiPaths.organizations)}?q=${percentEncode(text)}`, headers: bearer(token) }),
    (text) => ({ method: 'POST', url: api(apiPaths.logout), headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [text]: text }) }),
    (text) => ({ method: 'GET', url: `/reset-password?token=${percentEncode(text)}` }),
    ...['token', 'newPassword', 'confirmPassword'].map(
      (field) => (text: string): InjectOptions => ({
        method: 'POST',
        url: '/reset-password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${'a'.repeat(43)}&newPassword=another-password&confirmPassword=another-password&${field}=${percentEncode(text)}`,
      }),
    ),
  ];
  for (const request of requests) {
    await fc.assert(
      fc.asyncProperty(textFor('GC-ABC'), async (text) => {
        const options = request(text);
        const response = await t.app.inject(options);
        expectNoServerError(response.statusCode, response.body, `${options.method ?? 'GET'} ${options.url ?? ''}`);
      }),
      { numRuns: RUNS_PER_FIELD },
    );
  }
}, 600_000);
