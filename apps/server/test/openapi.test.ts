import { apiPaths, DenialReason, manageTicketRoutes } from '@gatecheck/contract';
import { Validator } from '@seriousme/openapi-schema-validator';
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

/** The supervisor calls of issue 11 (not in SPEC §7). */
const SUPERVISOR_OPERATION_IDS = ['getLiveDoor', 'exportArrivalsCsv', 'exportScanLogCsv', 'searchAttendees', 'manualCheckIn', 'undoCheckIn', 'readScanLog'] as const;
const OFFLINE_OPERATION_IDS = ['getDoorList', 'uploadOfflineScans', 'listOfflineConflicts', 'listSigningKeys'] as const;
/** The organizer's management calls (docs/decisions/105, 106), the door team's (issue 30 item 5) and the check-in list writes (docs/decisions/115). */
const MANAGE_OPERATION_IDS = [
  'listManagedEvents',
  'createEvent',
  'getManagedEvent',
  'updateEvent',
  'archiveEvent',
  'restoreEvent',
  'listEventActivity',
  'listOrganizationActivity',
  'getTeam',
  'inviteMember',
  'revokeInvitation',
  'acceptInvitation',
  'joinWithNewAccount',
  // Ticket types and tickets (docs/decisions/114).
  'listManagedTicketTypes',
  'createTicketType',
  'editTicketType',
  'deleteTicketType',
  'searchManagedTickets',
  'editTicket',
  'revokeManagedTicket',
  'reinstateTicket',
  'getTicketQr',
  'getTicketsPdf',
  'previewTicketImport',
  'importTickets',
  'changeMemberRole',
  'removeMember',
  'createCheckInList',
  'editCheckInList',
  'deleteCheckInList',
] as const;
const TICKET_TYPE_OPERATION_IDS = ['listTicketTypes', 'updateTicketType'] as const;
/** The door-device calls (docs/decisions/107, 108). */
const DEVICE_OPERATION_IDS = ['createDeviceEnrollment', 'redeemDeviceEnrollment', 'startDeviceShift', 'reportDeviceStatus', 'listDevices', 'updateDevice', 'revokeDevice'];

const JsonSchema = z.looseObject({ type: z.union([z.string(), z.array(z.string())]).optional() });
const Operation = z.looseObject({
  operationId: z.string().optional(),
  requestBody: z.object({ content: z.object({ 'application/json': z.object({ schema: z.looseObject({ required: z.array(z.string()).optional() }) }) }) }).optional(),
  parameters: z.array(z.looseObject({ in: z.string(), name: z.string() })).optional(),
  // JSON answers, the CSV exports' text/csv (docs/decisions/117), a ticket's PNG, the tickets' PDF
  // and the import's NDJSON lines (docs/decisions/114).
  responses: z.record(
    z.string(),
    z.looseObject({
      content: z
        .object({
          'application/json': z.object({ schema: JsonSchema }).optional(),
          'text/csv': z.object({ schema: JsonSchema }).optional(),
          'image/png': z.object({ schema: z.looseObject({}) }).optional(),
          'application/pdf': z.object({ schema: z.looseObject({}) }).optional(),
          'application/x-ndjson': z.object({ schema: z.unknown() }).optional(),
        })
        .optional(),
    }),
  ),
});
const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
  components: z.looseObject({ schemas: z.record(z.string(), z.looseObject({})) }),
});
const Reference = z.object({ $ref: z.string().startsWith('#/components/schemas/') });

let t: TestApp;
let document: z.infer<typeof OpenApiDocument>;
let documentJson: Record<string, unknown>;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const response = await t.app.inject({ method: 'GET', url: api('/docs/json') });
  expect(response.statusCode).toBe(200);
  documentJson = z.record(z.string(), z.unknown()).parse(response.json());
  document = OpenApiDocument.parse(documentJson);
});
afterAll(async () => {
  await t.close();
});

/** A schema with its `$ref` to a named component followed. */
function resolved(schema: unknown): z.infer<typeof JsonSchema> & { required?: string[] } {
  const reference = Reference.safeParse(schema);
  const target = reference.success ? document.components.schemas[reference.data.$ref.slice('#/components/schemas/'.length)] : schema;
  return JsonSchema.extend({ required: z.array(z.string()).optional() }).parse(target);
}

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

test('the document passes an independent OpenAPI 3.1 validator', async () => {
  const result = await new Validator().validate(documentJson);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
});

test('every SPEC §7 call is in the OpenAPI document with its request and response schemas', () => {
  for (const call of SPEC_CALLS) {
    const operation = document.paths[openApiPath(call.path)]?.[call.method];
    expect(operation, `${call.method.toUpperCase()} ${call.path}`).toBeDefined();
    const success = operation?.responses[call.status]?.content?.['application/json']?.schema;
    expect(success, `${call.path} ${call.status} schema`).toBeDefined();
    if (call.required) {
      const required = resolved(operation?.requestBody?.content['application/json'].schema).required ?? [];
      expect(required, `${call.path} request body`).toEqual(expect.arrayContaining([...call.required]));
    }
  }
});

test('the events path documents its organizationId parameter, and the error answers are { code, message }', () => {
  const events = document.paths[openApiPath(apiPaths.organizationEvents)]?.get;
  expect(events?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'organizationId' })]));
  const conflict = document.paths[openApiPath(apiPaths.register)]?.post?.responses['409']?.content?.['application/json']?.schema;
  expect(resolved(conflict)).toMatchObject({ type: 'object', required: expect.arrayContaining(['code', 'message']) });
});

test('verify documents every denial reason, event_not_active included, and its 401, 403 (CSRF), 404 and 429 answers', () => {
  const verify = document.paths[openApiPath(apiPaths.verifyTicket)]?.post;
  expect(document.components.schemas.DenialReason).toMatchObject({ enum: expect.arrayContaining([...DenialReason.options]) });
  expect(JSON.stringify(document.components.schemas.DeniedVerdict)).toContain('"#/components/schemas/DenialReason"');
  expect(verify?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/VerifyTicketResponse' });
  for (const status of ['401', '403', '404', '429']) {
    expect(resolved(verify?.responses[status]?.content?.['application/json']?.schema), status).toMatchObject({ required: expect.arrayContaining(['code', 'message']) });
  }
});

test('verify, the attendee search and the door list declare the check-in note and attention flag as optional fields (docs/decisions/102)', () => {
  const schemas = document.components.schemas;
  for (const name of ['ApprovedVerdict', 'DeniedVerdict', 'Attendee']) {
    const schema = z.looseObject({ properties: z.record(z.string(), z.unknown()), required: z.array(z.string()).optional() }).parse(schemas[name]);
    expect(schema.properties, name).toMatchObject({ checkInNote: { type: 'string' }, requiresAttention: { type: 'boolean' } });
    expect(schema.required ?? [], name).not.toContain('checkInNote');
    expect(schema.required ?? [], name).not.toContain('requiresAttention');
  }
  expect(JSON.stringify(schemas.DoorListEntry)).toContain('"checkInNote"');
  expect(JSON.stringify(schemas.DoorList)).toContain('"#/components/schemas/DoorListTicketType"');
  expect(document.paths[openApiPath(apiPaths.ticketType)]?.patch?.requestBody?.content['application/json'].schema).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\/UpdateTicketTypeRequest/) });
});

test("verify's verdicts declare the list's inside-now and capacity as optional, described fields (docs/decisions/120)", () => {
  const schemas = document.components.schemas;
  for (const name of ['ApprovedVerdict', 'DeniedVerdict']) {
    const schema = z.looseObject({ properties: z.record(z.string(), z.unknown()), required: z.array(z.string()).optional() }).parse(schemas[name]);
    expect(schema.properties, name).toMatchObject({
      insideNow: { type: 'integer', minimum: 0, description: expect.stringContaining('inside') },
      capacity: { description: expect.stringContaining('capacity') },
    });
    expect(schema.required ?? [], name).not.toContain('insideNow');
    expect(schema.required ?? [], name).not.toContain('capacity');
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

test('GET /auth/options (whether sign-up is offered) is documented as a public call answering isSignUpAllowed', () => {
  const operation = z
    .looseObject({ security: z.unknown().optional(), responses: z.record(z.string(), z.unknown()) })
    .parse(document.paths[openApiPath(apiPaths.authOptions)]?.get);
  expect(operation.security).toBeUndefined();
  const answer = z.looseObject({ content: z.looseObject({ 'application/json': z.looseObject({ schema: z.unknown() }) }) }).parse(operation.responses['200']);
  expect(resolved(answer.content['application/json'].schema).required).toEqual(['isSignUpAllowed']);
});

/** Every operation of the document: method, path and the operation. */
function operations(): { method: string; path: string; operation: z.infer<typeof Operation> }[] {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation })));
}

/** The doors' calls (docs/decisions/111) beyond the lists' writes (MANAGE_OPERATION_IDS): the info scan. */
const DOOR_OPERATION_IDS = ['infoScan'];

test('every operation has its own operationId', () => {
  const ids = operations().map(({ operation }) => operation.operationId);
  // The SPEC §7 calls plus GET /auth/options (whether sign-up is offered, docs/decisions/018) and
  // GET /events/{eventId}/days/{day}/counts (live counts, docs/decisions/033) and the four
  // supervisor calls of issue 11 (docs/decisions/037), the four offline check-in calls of issue 12
  // (docs/decisions/043–045), the health and readiness probes of issue 14 (docs/decisions/041) and
  // the check-in lists of an event (docs/decisions/100), the ticket types with their check-in
  // notes (docs/decisions/102), the door-device calls (docs/decisions/107) and the management calls
  // (docs/decisions/105, 106), and the doors' calls (docs/decisions/111).
  expect(ids.length).toBe(
    SPEC_CALLS.length + 2 + SUPERVISOR_OPERATION_IDS.length + OFFLINE_OPERATION_IDS.length + 2 + 1 + TICKET_TYPE_OPERATION_IDS.length + DEVICE_OPERATION_IDS.length + MANAGE_OPERATION_IDS.length + DOOR_OPERATION_IDS.length,
  );
  for (const id of DOOR_OPERATION_IDS) expect(ids).toContain(id);
  expect(ids).toContain('listCheckInLists');
  expect(ids).toContain('getHealth');
  expect(ids).toContain('getReadiness');
  for (const id of [...SUPERVISOR_OPERATION_IDS, ...OFFLINE_OPERATION_IDS, ...TICKET_TYPE_OPERATION_IDS, ...DEVICE_OPERATION_IDS, ...MANAGE_OPERATION_IDS]) expect(ids).toContain(id);
  for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect(document.paths[openApiPath(apiPaths.verifyTicket)]?.post?.operationId).toBe('verifyTicket');
});

test('request bodies and answers are named component schemas, errors all ApiErrorBody', () => {
  for (const { method, path, operation } of operations()) {
    const body = operation.requestBody?.content['application/json'].schema;
    if (body) expect(Reference.safeParse(body).success, `${method} ${path} request body`).toBe(true);
    for (const [status, response] of Object.entries(operation.responses)) {
      const schema = response.content?.['application/json']?.schema;
      const csv = response.content?.['text/csv']?.schema;
      const file = response.content?.['image/png']?.schema ?? response.content?.['application/pdf']?.schema;
      const lines = response.content?.['application/x-ndjson']?.schema;
      if (Number(status) >= 400) expect(schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/ApiErrorBody' });
      else if (csv) expect(csv, `${method} ${path} ${status}`).toEqual({ type: 'string' });
      else if (file) expect(file, `${method} ${path} ${status}`).toEqual({ type: 'string', format: 'binary' });
      else if (lines) expect(Reference.safeParse(lines).success, `${method} ${path} ${status} (a line)`).toBe(true);
      else expect(Reference.safeParse(schema).success, `${method} ${path} ${status}`).toBe(true);
    }
  }
});

test('every operation documents its success answer with its content type: the QR PNG, the tickets PDF and the import NDJSON too (the document is whole)', () => {
  for (const { method, path, operation } of operations()) {
    const success = Object.entries(operation.responses).filter(([status]) => Number(status) >= 200 && Number(status) < 300);
    expect(success.length, `${method} ${path} has no 2xx answer`).toBeGreaterThan(0);
    // 204 has no body; every other success answer says what it is.
    for (const [status, response] of success) if (status !== '204') expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).not.toEqual([]);
  }
  const answerTypes = (method: 'get' | 'post', path: string) => Object.keys(document.paths[openApiPath(path)]?.[method]?.responses['200']?.content ?? {});
  expect(answerTypes('get', manageTicketRoutes.ticketQr)).toEqual(['image/png']);
  expect(answerTypes('get', manageTicketRoutes.ticketsPdf)).toEqual(['application/pdf']);
  expect(answerTypes('post', manageTicketRoutes.importTickets)).toEqual(['application/x-ndjson']);
  expect(document.paths[openApiPath(manageTicketRoutes.importTickets)]?.post?.responses['200']?.content?.['application/x-ndjson']?.schema).toEqual({
    $ref: '#/components/schemas/TicketImportEvent',
  });
});

test('every error answer a route can give is declared, from what the route has (issue 15 item 15)', () => {
  const statuses = (method: 'get' | 'post', path: string) => Object.keys(document.paths[openApiPath(path)]?.[method]?.responses ?? {});
  // A body: 400, 413, 415; a state change: 403 (CSRF); every route: 500.
  for (const { method, path, operation } of operations()) {
    expect(Object.keys(operation.responses), `${method} ${path}`).toContain('500');
    if (method === 'post') expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '403', '413', '415']));
  }
  // A session: 401.
  for (const path of [apiPaths.usersMe, apiPaths.organizations, apiPaths.organizationEvents]) expect(statuses('get', path)).toContain('401');
  for (const path of [apiPaths.verifyTicket, apiPaths.changePassword]) expect(statuses('post', path)).toContain('401');
  // Path params: 400, 404 (a non-member's answer too: no 403 that would tell the id exists, decision 086).
  expect(statuses('get', apiPaths.organizationEvents)).toEqual(expect.arrayContaining(['400', '404']));
  expect(statuses('get', apiPaths.organizationEvents)).not.toContain('403');
  // Rate limits: 429; a wrong password: 401.
  expect(statuses('post', apiPaths.login)).toEqual(expect.arrayContaining(['401', '429']));
  expect(statuses('post', apiPaths.register)).toEqual(expect.arrayContaining(['409', '429']));
});

test('the live counts of an event day are documented: both path params, CheckInCounts, and the 401 and 404 of verify', () => {
  const operation = document.paths[openApiPath(apiPaths.checkInCounts)]?.get;
  expect(operation?.operationId).toBe('getCheckInCounts');
  expect(operation?.security).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
  expect(operation?.parameters).toEqual(
    expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'eventId' }), expect.objectContaining({ in: 'path', name: 'day' })]),
  );
  expect(operation?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CheckInCounts' });
  expect(resolved(operation?.responses['200']?.content?.['application/json']?.schema).required).toEqual(
    expect.arrayContaining(['eventId', 'day', 'checkedIn', 'validTickets']),
  );
  expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '404', '500']));
  expect(Object.keys(operation?.responses ?? {})).not.toContain('403');
});

test('the login answer documents what the server sends: token and expiresAt, both required', () => {
  const login = document.paths[openApiPath(apiPaths.login)]?.post?.responses['200']?.content?.['application/json']?.schema;
  const schema = resolved(login);
  expect(schema.required).toEqual(expect.arrayContaining(['token', 'expiresAt']));
  expect(JSON.stringify(schema)).not.toContain('sessionToken');
});

test('check-in lists are documented (docs/decisions/100): the lists of an event, checkInListId on every call that takes one, not_on_list with its facts', () => {
  const lists = document.paths[openApiPath(apiPaths.checkInLists)]?.get;
  expect(lists?.operationId).toBe('listCheckInLists');
  expect(lists?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CheckInLists' });
  expect(Object.keys(lists?.responses ?? {})).toEqual(expect.arrayContaining(['401', '404']));
  for (const schema of ['VerifyTicketRequest', 'ManualCheckInRequest', 'UndoCheckInRequest', 'OfflineScanBatch']) {
    const properties = resolved({ $ref: `#/components/schemas/${schema}` }).properties ?? {};
    expect(Object.keys(properties), schema).toContain('checkInListId');
    expect(resolved({ $ref: `#/components/schemas/${schema}` }).required ?? [], schema).not.toContain('checkInListId');
  }
  for (const path of [apiPaths.verifyTicket, apiPaths.manualCheckIn, apiPaths.undoCheckIn, apiPaths.offlineScans]) {
    expect(Object.keys(document.paths[openApiPath(path)]?.post?.responses ?? {}), path).toContain('400');
  }
  for (const path of [apiPaths.checkInCounts, apiPaths.doorList, apiPaths.attendeeSearch]) {
    const parameters = document.paths[openApiPath(path)]?.get?.parameters ?? [];
    expect(parameters, path).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'query', name: 'checkInListId' })]));
    expect(Object.keys(document.paths[openApiPath(path)]?.get?.responses ?? {}), path).toContain('400');
  }
  expect(JSON.stringify(document.components)).toContain('"not_on_list"');
  expect(Object.keys(resolved({ $ref: '#/components/schemas/DeniedVerdict' }).properties ?? {})).toContain('listDenial');
});
