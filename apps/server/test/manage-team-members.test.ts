/**
 * The door team's members (docs/decisions/115) on the real app and database: an admin changes a
 * member's role and removes a member; only admins may (anonymous, another organization, staff,
 * supervisor, a door device refused); an organization never loses its last admin, also when two
 * admins demote each other at once; a removed member's session loses the organization on its next
 * request; each change is on the audit trail, from the API and from the admin CLI alike; the
 * invitation link's calls are rate limited per address; door devices' enrollments, renames and
 * revocations are recorded at the organization.
 */
import path from 'node:path';
import { tmpdir } from 'node:os';
import { ApiErrorBody, apiPaths, devicePaths, OrganizationList, Team, teamPaths } from '@gatecheck/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEntries, memberships, organizations } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { ServiceError } from '../src/services/errors.ts';
import { changeMemberRole } from '../src/services/team.ts';
import { createSession } from '../src/services/sessions.ts';
import { createUser } from '../src/services/users.ts';
import { runCli } from './cli/cli-harness.ts';
import { enrollDevice, newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'otherOrganization' | 'staff' | 'supervisor' | 'admin' | 'device';
const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'admin', 'device'] as const satisfies readonly Caller[];

const RATE_LIMIT_IP_MAX = 5;

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let accounts = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_IP_MAX: String(RATE_LIMIT_IP_MAX) } });
  ids = await demoIds(t.database.db);
  await createOutsider(t.database.db);
});
afterAll(async () => {
  await t.close();
});

async function tokenOf(username: string): Promise<string> {
  return (await createSession(t.database.db, await userIdOf(t.database.db, username), 60_000)).token;
}

async function send(caller: Caller | { token: string }, request: InjectOptions) {
  let token: string | null = null;
  if (typeof caller === 'object') token = caller.token;
  else if (caller === 'device') token = (await newDeviceToken(t.database.db, ids.liveEventId)).token;
  else if (caller !== 'anonymous') {
    token = await tokenOf({ otherOrganization: OUTSIDER.username, staff: DEMO_COLLEAGUE.username, supervisor: DEMO_SUPERVISOR.username, admin: DEMO_USER.username }[caller]);
  }
  return t.app.inject({ ...request, headers: token ? { ...request.headers, ...bearer(token) } : request.headers });
}

/** A new account that is a member of the demo organization (or `organizationId`) with `role`. */
async function newMember(role: 'staff' | 'supervisor' | 'admin', organizationId = ids.organizationId): Promise<{ userId: string; username: string }> {
  accounts += 1;
  const username = `member${accounts}`;
  const userId = await createUser(t.database.db, { username, email: `${username}@example.org`, password: 'a-long-password', displayName: `Member ${accounts}`, country: 'GB' });
  await t.database.db.insert(memberships).values({ userId, organizationId, role });
  return { userId, username };
}

async function latestTeamEntry() {
  const [entry] = await t.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.organizationId, ids.organizationId), isNull(auditEntries.eventId)))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(1);
  return entry;
}

describe(`only the organization's admins change roles and remove members (${TEST_DATABASE_KIND})`, () => {
  // A door device is refused as it is for every call but scanning its event (docs/decisions/107).
  const expected: Record<Caller, number> = { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin: 200, device: 403 };
  const rows: Array<{ endpoint: string; request: () => Promise<InjectOptions> }> = [
    {
      endpoint: 'POST member role',
      request: async () => ({ method: 'POST', url: api(teamPaths.memberRole(ids.organizationId, (await newMember('staff')).userId)), payload: { role: 'supervisor' } }),
    },
    { endpoint: 'POST remove member', request: async () => ({ method: 'POST', url: api(teamPaths.removeMember(ids.organizationId, (await newMember('staff')).userId)) }) },
  ];
  for (const row of rows) {
    for (const caller of CALLERS) {
      test(`${row.endpoint}: ${caller} gets ${expected[caller]}`, async () => {
        const response = await send(caller, await row.request());
        expect(response.statusCode, response.body).toBe(expected[caller]);
        if (response.statusCode >= 400) ApiErrorBody.parse(response.json());
      });
    }
  }

  test('a member of another organization cannot be changed through this one (404), nor an unknown id', async () => {
    const [other] = await t.database.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.name, 'Other Org'));
    const stranger = await newMember('staff', other?.id ?? '');
    for (const userId of [stranger.userId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await send('admin', { method: 'POST', url: api(teamPaths.memberRole(ids.organizationId, userId)), payload: { role: 'admin' } });
      expect(response.statusCode, response.body).toBe(404);
    }
    expect((await send('admin', { method: 'POST', url: api(teamPaths.removeMember(ids.organizationId, stranger.userId)) })).statusCode).toBe(404);
  });
});

test('an admin changes a member’s role: the team shows it, the member’s next request has it, and the audit entry holds before and after', async () => {
  const member = await newMember('staff');
  const memberToken = await tokenOf(member.username);
  const response = await send('admin', { method: 'POST', url: api(teamPaths.memberRole(ids.organizationId, member.userId)), payload: { role: 'supervisor' } });
  expect(response.statusCode, response.body).toBe(200);
  expect(Team.parse(response.json()).members.find((entry) => entry.userId === member.userId)?.role).toBe('supervisor');
  const organizationsOfMember = OrganizationList.parse((await send({ token: memberToken }, { method: 'GET', url: api(apiPaths.organizations) })).json());
  expect(organizationsOfMember.find((organization) => organization._id === ids.organizationId)?.role).toBe('supervisor');
  expect(await latestTeamEntry()).toMatchObject({
    action: 'member.role_changed',
    actorName: DEMO_USER.displayName,
    before: { userId: member.userId, role: 'staff' },
    after: { userId: member.userId, role: 'supervisor' },
  });

  const bad = await send('admin', { method: 'POST', url: api(teamPaths.memberRole(ids.organizationId, member.userId)), payload: { role: 'owner' } });
  expect(bad.statusCode).toBe(400);
  expect(ApiErrorBody.parse(bad.json())).toMatchObject({ code: 'validation_failed', field: 'body.role' });
});

test('a removed member’s session loses the organization at its next request; the account stays; the removal is audited', async () => {
  const member = await newMember('supervisor');
  const memberToken = await tokenOf(member.username);
  const before = await send({ token: memberToken }, { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: ids.liveEventId, qrCode: 'NO-SUCH-CODE', day: 1 } });
  expect(before.statusCode).toBe(200);

  const removed = await send('admin', { method: 'POST', url: api(teamPaths.removeMember(ids.organizationId, member.userId)) });
  expect(removed.statusCode, removed.body).toBe(200);
  expect(Team.parse(removed.json()).members.map((entry) => entry.userId)).not.toContain(member.userId);

  const after = await send({ token: memberToken }, { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: ids.liveEventId, qrCode: 'NO-SUCH-CODE', day: 1 } });
  expect(after.statusCode).toBe(404);
  const listed = OrganizationList.parse((await send({ token: memberToken }, { method: 'GET', url: api(apiPaths.organizations) })).json());
  expect(listed).toEqual([]);
  expect(await latestTeamEntry()).toMatchObject({ action: 'member.removed', before: { userId: member.userId, role: 'supervisor' }, after: null });
  expect((await send('admin', { method: 'POST', url: api(teamPaths.removeMember(ids.organizationId, member.userId)) })).statusCode).toBe(404);
});

describe('an organization never loses its last admin', () => {
  test('the only admin cannot demote or remove themselves (409, nothing changed, nothing recorded); with a second admin they can', async () => {
    const [org] = await t.database.db.insert(organizations).values({ name: `Solo ${Date.now()}` }).returning({ id: organizations.id });
    const organizationId = org?.id ?? '';
    const solo = await newMember('admin', organizationId);
    const soloToken = { token: await tokenOf(solo.username) };
    const entriesBefore = await t.database.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.organizationId, organizationId));

    const demote = await send(soloToken, { method: 'POST', url: api(teamPaths.memberRole(organizationId, solo.userId)), payload: { role: 'staff' } });
    expect(demote.statusCode).toBe(409);
    expect(ApiErrorBody.parse(demote.json())).toMatchObject({ code: 'conflict', field: 'body.role', message: expect.stringContaining('only admin') });
    const remove = await send(soloToken, { method: 'POST', url: api(teamPaths.removeMember(organizationId, solo.userId)) });
    expect(remove.statusCode).toBe(409);
    expect(ApiErrorBody.parse(remove.json()).code).toBe('conflict');
    expect((await t.database.db.select({ role: memberships.role }).from(memberships).where(eq(memberships.organizationId, organizationId)))).toEqual([{ role: 'admin' }]);
    expect(await t.database.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.organizationId, organizationId))).toEqual(entriesBefore);

    const second = await newMember('admin', organizationId);
    const leave = await send(soloToken, { method: 'POST', url: api(teamPaths.removeMember(organizationId, solo.userId)) });
    expect(leave.statusCode, leave.body).toBe(200);
    // The one who left has no team to read any more; the one who stayed cannot leave now.
    expect((await send(soloToken, { method: 'GET', url: api(teamPaths.team(organizationId)) })).statusCode).toBe(404);
    const secondToken = { token: await tokenOf(second.username) };
    expect((await send(secondToken, { method: 'POST', url: api(teamPaths.removeMember(organizationId, second.userId)) })).statusCode).toBe(409);
  });

  test('two admins demoting each other at the same moment: one succeeds, the other is refused, one admin remains (20 organizations at once)', async () => {
    // Both calls past the API's role check at once (the service itself, so neither is refused
    // there for having just lost the role): the organization's lock decides. Many pairs at once, so
    // that on PostgreSQL's pool the two transactions of a pair overlap.
    const pairs = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const [org] = await t.database.db.insert(organizations).values({ name: `Pair ${n} ${Date.now()}` }).returning({ id: organizations.id });
        const organizationId = org?.id ?? '';
        return { organizationId, first: await newMember('admin', organizationId), second: await newMember('admin', organizationId) };
      }),
    );
    const results = await Promise.all(
      pairs.map(({ organizationId, first, second }) =>
        Promise.allSettled([
          changeMemberRole(t.database.db, { organizationId, userId: second.userId, role: 'staff' }, { kind: 'user', userId: first.userId, name: 'First' }),
          changeMemberRole(t.database.db, { organizationId, userId: first.userId, role: 'staff' }, { kind: 'user', userId: second.userId, name: 'Second' }),
        ]),
      ),
    );
    for (const [index, pair] of results.entries()) {
      expect(pair.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refusal = pair.find((result) => result.status === 'rejected')?.reason;
      expect(refusal).toBeInstanceOf(ServiceError);
      expect((refusal as ServiceError).code).toBe('conflict');
      const organizationId = pairs[index]?.organizationId ?? '';
      const admins = await t.database.db.select({ userId: memberships.userId }).from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'admin')));
      expect(admins).toHaveLength(1);
    }
  });
});

test('the admin CLI changes memberships through the same service: audited as the CLI, and the last-admin rule holds there too', async () => {
  const dir = path.join(tmpdir(), 'gatecheck-team-cli');
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const cli = (argv: string[]) => runCli(argv, { env, database: t.database });
  const created = await cli(['org', 'create', '--name', 'CLI Crew']);
  expect(created.exitCode, created.stderr).toBe(0);
  const organizationId = /id ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? '';
  const member = await newMember('staff', ids.organizationId);

  expect((await cli(['org', 'add-member', '--org', 'CLI Crew', '--user', member.username, '--role', 'admin'])).exitCode).toBe(0);
  const lastAdmin = await cli(['org', 'set-role', '--org', 'CLI Crew', '--user', member.username, '--role', 'staff']);
  expect(lastAdmin.exitCode).toBe(1);
  expect(lastAdmin.stderr).toContain('only admin');
  expect((await cli(['org', 'add-member', '--org', 'CLI Crew', '--user', DEMO_USER.username, '--role', 'admin'])).exitCode).toBe(0);
  expect((await cli(['org', 'set-role', '--org', 'CLI Crew', '--user', member.username, '--role', 'supervisor'])).exitCode).toBe(0);
  const removed = await cli(['org', 'remove-member', '--org', 'CLI Crew', '--user', member.username]);
  expect(removed.exitCode, removed.stderr).toBe(0);

  const entries = await t.database.db
    .select({ action: auditEntries.action, actorKind: auditEntries.actorKind, actorName: auditEntries.actorName })
    .from(auditEntries)
    .where(eq(auditEntries.organizationId, organizationId))
    .orderBy(auditEntries.createdAt, auditEntries.id);
  expect(entries.map((entry) => entry.action)).toEqual(['organization.created', 'member.added', 'member.added', 'member.role_changed', 'member.removed']);
  expect(entries.every((entry) => entry.actorKind === 'cli' && entry.actorName.startsWith('admin CLI ('))).toBe(true);
});

test('the invitation link’s calls are limited per address like sign-up: accept and join each answer 429 after the window’s allowance', async () => {
  const remoteAddress = '10.9.8.7';
  const token = await tokenOf(DEMO_USER.username);
  for (const [url, payload, headers] of [
    [teamPaths.acceptInvitation, { token: 'guess' }, bearer(token)],
    [teamPaths.joinWithNewAccount, { token: 'guess', name: 'Guesser', username: 'guesser', password: 'a-long-password' }, {}],
  ] as const) {
    for (let attempt = 0; attempt < RATE_LIMIT_IP_MAX; attempt += 1) {
      const answer = await t.app.inject({ method: 'POST', url: api(url), payload, headers, remoteAddress });
      expect(answer.statusCode, answer.body).toBe(400);
    }
    const limited = await t.app.inject({ method: 'POST', url: api(url), payload, headers, remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(ApiErrorBody.parse(limited.json()).code).toBe('rate_limited');
  }
});

test('door devices are on the organization’s record too: an enrollment and a revocation by the admin, a rename by the CLI', async () => {
  const dir = path.join(tmpdir(), 'gatecheck-devices-cli');
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const adminToken = await tokenOf(DEMO_USER.username);
  const { device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Audit gate');
  const renamed = await runCli(['device', 'rename', '--device', device.id, '--name', 'Audit gate 2'], { env, database: t.database });
  expect(renamed.exitCode, renamed.stderr).toBe(0);
  expect((await send({ token: adminToken }, { method: 'POST', url: api(devicePaths.revokeDevice(device.id)) })).statusCode).toBe(200);
  // Revoking again changes nothing and records nothing.
  expect((await send({ token: adminToken }, { method: 'POST', url: api(devicePaths.revokeDevice(device.id)) })).statusCode).toBe(200);

  const entries = await t.database.db
    .select({ action: auditEntries.action, actorKind: auditEntries.actorKind, before: auditEntries.before, after: auditEntries.after })
    .from(auditEntries)
    .where(and(eq(auditEntries.organizationId, ids.organizationId), isNull(auditEntries.eventId)))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(3);
  expect(entries.map((entry) => [entry.action, entry.actorKind])).toEqual([
    ['device.revoked', 'user'],
    ['device.updated', 'cli'],
    ['device.enrollment_created', 'user'],
  ]);
  expect(entries[1]).toMatchObject({ before: { deviceId: device.id, name: 'Audit gate' }, after: { deviceId: device.id, name: 'Audit gate 2' } });
});
