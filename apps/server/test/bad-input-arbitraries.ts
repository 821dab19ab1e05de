/**
 * fast-check generators of hostile requests for the bad-input tests, and the check every answer
 * must pass: a 4xx `{ code, message }` without internals, or a 2xx when the input happened to be valid.
 */
import { ApiErrorBody } from '@gatecheck/contract';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.ts';

/** Runs per route (issue 4: at least 1,000 generated bodies to each route). */
export const RUNS_PER_ROUTE = 1000;

/** Environment for the app under test: limits high enough that the generated traffic is never throttled. */
export const UNTHROTTLED_ENV = { RATE_LIMIT_IP_MAX: '1000000', RATE_LIMIT_ACCOUNT_MAX: '1000000' };

/** Strings that try to break out of SQL, HTML, paths or templates, and other awkward values. */
export const nastyString = fc.constantFrom(
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT pg_sleep(1); --",
  "admin'--",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '\u0000',
  '%00%27',
  '\uFEFF\u202E',
  '😀👍🏽',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '00000000-0000-4000-8000-000000000000',
  ' ',
);

/** E-mail addresses of the everyday shape (fast-check's own are mostly exotic ones validators refuse). */
export const plainEmail = fc.stringMatching(/^[a-z][a-z0-9.]{0,10}@[a-z]{1,8}\.(org|com|net)$/).filter((email) => !email.includes('.@') && !email.includes('..'));

/** Strings of every kind: random, unicode, hostile, e-mail- and id-shaped, long, and over the body limit. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 5000 }).map((length) => 'a'.repeat(length)) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(BODY_LIMIT_BYTES + 10)) },
);

/** Values of the wrong JSON type for a field. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/**
 * JSON objects shaped like a route's body: each field may be missing, valid-looking (`fields`), any
 * string, or of the wrong type; sometimes with unknown extra keys.
 */
export function bodyLike(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const shaped = fc.record(
    Object.fromEntries(
      Object.entries(fields).map(([name, valid]) => [
        name,
        fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: anyString }, { weight: 1, arbitrary: wrongType }),
      ]),
    ),
    { requiredKeys: [] },
  );
  const extra = fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(anyString, wrongType), { maxKeys: 2 });
  return fc.tuple(shaped, fc.option(extra, { nil: undefined })).map(([body, more]) => ({ ...more, ...body }));
}

/** A request body as sent on the wire: its bytes and content type. */
export interface RawBody {
  payload: string;
  contentType: string | undefined;
}

const JSON_TYPE = 'application/json';

/**
 * Bodies for a JSON route: mostly `shaped` objects, and also other JSON values, malformed JSON, no
 * body, and other content types.
 */
export function rawBody(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  return fc.oneof(
    { weight: 8, arbitrary: shaped.map((value) => ({ payload: JSON.stringify(value), contentType: JSON_TYPE })) },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: JSON_TYPE })) },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((text) => ({ payload: text, contentType: JSON_TYPE })) },
    {
      weight: 1,
      arbitrary: shaped.map((value) => {
        const text = JSON.stringify(value);
        return { payload: text.slice(0, Math.max(1, text.length - 2)), contentType: JSON_TYPE };
      }),
    },
    { weight: 1, arbitrary: fc.constant({ payload: '', contentType: JSON_TYPE }) },
    { weight: 1, arbitrary: fc.constant({ payload: '', contentType: undefined }) },
    {
      weight: 1,
      arbitrary: fc.record({
        payload: fc.string({ maxLength: 40 }),
        contentType: fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=utf-16'),
      }),
    },
  );
}

/** Internals an error body must never show: stack frames, file paths, driver or SQL text. */
const INTERNALS = /\bat .+:\d+:\d+|node_modules|\.ts\b|stack|drizzle|pglite|postgres|\bselect\b.+\bfrom\b|insert into|violates|syntax error|TypeError|ReferenceError/i;

/** What came back: the status, and for errors the body's code and message. */
export interface Answer {
  status: number;
  code: string | undefined;
  message: string | undefined;
}

/** Sends `options` and checks the answer as described in the module comment. */
export async function expectSafeAnswer(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const response = await app.inject(options);
  const status = response.statusCode;
  expect(status, response.body).toBeLessThan(500);
  if (status < 400) {
    expect([200, 201]).toContain(status);
    return { status, code: undefined, message: undefined };
  }
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = ApiErrorBody.parse(response.json());
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.message, 'error message shows internals').not.toMatch(INTERNALS);
  return { status, code: body.code, message: body.message };
}

/**
 * Whether the request got past parsing and validation to the route's rules (a 2xx, or an error the
 * rules raised), so a test can show its generator does not only hit the 400 wall.
 */
function reachedTheRules(answer: Answer): boolean {
  if (answer.status < 400) return true;
  if (answer.status === 413 || answer.status === 415 || answer.code === 'validation_failed') return false;
  // Fastify's JSON parser: "Body is not valid JSON…", "Body cannot be empty…".
  return !answer.message?.startsWith('Body ');
}

/** Runs RUNS_PER_ROUTE generated requests through `send` and checks the share that reached the rules. */
export async function assertSafeForAll<T>(arbitrary: fc.Arbitrary<T>, send: (value: T) => Promise<Answer>): Promise<void> {
  let reached = 0;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      if (reachedTheRules(await send(value))) reached += 1;
    }),
    { numRuns: RUNS_PER_ROUTE },
  );
  // Some valid-enough requests (about 5-25% are expected; 2% leaves room for chance): the property
  // also covers the handlers and services.
  expect(reached).toBeGreaterThanOrEqual(RUNS_PER_ROUTE * 0.02);
}

/** Inject options for a POST of `body` to `url` with `headers`. */
export function postOf(url: string, body: RawBody, headers: Record<string, string> = {}): InjectOptions {
  return {
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...(body.contentType ? { 'content-type': body.contentType } : {}), ...headers },
  };
}
