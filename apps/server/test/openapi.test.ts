import { apiPaths, DenialReason } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

/** Every SPEC §7 call: method, contract path, the request body's required fields, the success status. */
const SPEC_CALLS = [
  { method: 'get', path: apiPaths.usersMe, required: undefined, status: '200' },
  { method: 'post', path: apiPaths.login, required: ['email', 'password'], status: '200' },
  { method: 'post', path: apiPaths.register, required: ['name', 'username', 'email', 'password'], status: '201' },
  { method: 'post', path: apiPaths.logout, required: undefined, status: '200' },
  { method: 'post', path: apiPaths.changePassword, required: ['currentPassword', 'newPassword'], status: '200' },
  { method: 'post', path: apiPaths.forgotPassword, required: ['email'], status: '200' },
  { method: 'post', path: apiPaths.resetPassword, required: ['token', 'newPassword'], status: '200' },
  { method: 'get', path: apiPaths.organizations, required: undefined, status: '200' },
  { method: 'get', path: apiPaths.organizationEvents, required: undefined, status: '200' },
  { method: 'post', path: apiPaths.verifyTicket, required: ['eventId', 'qrCode', 'day'], status: '200' },
] as const;

const JsonSchema = z.looseObject({ type: z.union([z.string(), z.array(z.string())]).optional() });
const Operation = z.looseObject({
  requestBody: z.object({ content: z.object({ 'application/json': z.object({ schema: z.looseObject({ required: z.array(z.string()).optional() }) }) }) }).optional(),
  parameters: z.array(z.looseObject({ in: z.string(), name: z.string() })).optional(),
  responses: z.record(z.string(), z.looseObject({ content: z.object({ 'application/json': z.object({ schema: JsonSchema }) }).optional() })),
});
const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
});

let t: TestApp;
let document: z.infer<typeof OpenApiDocument>;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const response = await t.app.inject({ method: 'GET', url: api('/docs/json') });
  expect(response.statusCode).toBe(200);
  document = OpenApiDocument.parse(response.json());
});
afterAll(async () => {
  await t.close();
});

/** `/organizations/membership/:organizationId` → `/api/organizations/membership/{organizationId}`. */
function openApiPath(path: string): string {
  return api(path.replace(/:([A-Za-z]+)/g, '{$1}'));
}

test('the OpenAPI document is OpenAPI 3.1 and documents only API routes', () => {
  expect(document.openapi).toBe('3.1.0');
  expect(document.info.title).toBe('Gatecheck API');
  for (const path of Object.keys(document.paths)) {
    expect(path).toMatch(/^\/api\//);
    expect(path).not.toMatch(/^\/api\/docs/);
  }
});

test('every SPEC §7 call is in the OpenAPI document with its request and response schemas', () => {
  for (const call of SPEC_CALLS) {
    const operation = document.paths[openApiPath(call.path)]?.[call.method];
    expect(operation, `${call.method.toUpperCase()} ${call.path}`).toBeDefined();
    const success = operation?.responses[call.status]?.content?.['application/json'].schema;
    expect(success, `${call.path} ${call.status} schema`).toBeDefined();
    if (call.required) {
      const required = operation?.requestBody?.content['application/json'].schema.required ?? [];
      expect(required, `${call.path} request body`).toEqual(expect.arrayContaining([...call.required]));
    }
  }
});

test('the events path documents its organizationId parameter, and the error answers are { code, message }', () => {
  const events = document.paths[openApiPath(apiPaths.organizationEvents)]?.get;
  expect(events?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'organizationId' })]));
  const conflict = document.paths[openApiPath(apiPaths.register)]?.post?.responses['409']?.content?.['application/json'].schema;
  expect(conflict).toMatchObject({ type: 'object', required: expect.arrayContaining(['code', 'message']) });
});

test('verify documents every denial reason, event_not_active included, and its 401, 403 and 404 answers', () => {
  const verify = document.paths[openApiPath(apiPaths.verifyTicket)]?.post;
  const approvedOrDenied = JSON.stringify(verify?.responses['200']?.content?.['application/json'].schema);
  for (const reason of DenialReason.options) expect(approvedOrDenied).toContain(`"${reason}"`);
  for (const status of ['401', '403', '404']) {
    expect(verify?.responses[status]?.content?.['application/json'].schema, status).toMatchObject({ required: expect.arrayContaining(['code', 'message']) });
  }
});

test('operations that need a session say so (bearer token or session cookie); the sign-in calls do not', () => {
  const security = [{ bearerToken: [] }, { sessionCookie: [] }];
  expect(document.paths[openApiPath(apiPaths.verifyTicket)]?.post?.security).toEqual(security);
  expect(document.paths[openApiPath(apiPaths.usersMe)]?.get?.security).toEqual(security);
  expect(document.paths[openApiPath(apiPaths.login)]?.post?.security).toBeUndefined();
  expect(document.paths[openApiPath(apiPaths.forgotPassword)]?.post?.security).toBeUndefined();
  expect(document.paths[openApiPath(apiPaths.verifyTicket)]?.post?.tags).toEqual(['tickets']);
});

test('the documentation UI is served at /api/docs with its assets from our own origin', async () => {
  const page = await t.app.inject({ method: 'GET', url: api('/docs') });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    expect(asset.startsWith('/api/docs/')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: asset })).statusCode).toBe(200);
  }
});
