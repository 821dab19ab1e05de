/**
 * The door team's invitations (issue 30 item 5) on the real app, database and mailer (the outbox
 * folder): an admin invites an address with a role and the link is mailed; the account of that
 * address accepts it and becomes a member; a link works once, not after it is revoked or has
 * expired, and not for another account; only admins invite, list and revoke; a door device does
 * none of it (docs/decisions/107); each step is audited.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiErrorBody, AcceptInvitationResponse, OrganizationList, apiPaths, Team, teamPaths, UserMe } from '@gatecheck/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { auditEntries, invitations, memberships, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { createUser } from '../src/services/users.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

/** `device`: a door device of the demo live event (docs/decisions/107), which scans and manages nothing. */
type Caller = 'anonymous' | 'otherOrganization' | 'staff' | 'supervisor' | 'admin' | 'device';
const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'admin', 'device'] as const satisfies readonly Caller[];
const USERNAMES: Record<Exclude<Caller, 'anonymous' | 'device'>, string> = {
  otherOrganization: OUTSIDER.username,
  staff: DEMO_COLLEAGUE.username,
  supervisor: DEMO_SUPERVISOR.username,
  admin: DEMO_USER.username,
};

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let outbox: string;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://gate.example.com' } });
  ids = await demoIds(t.database.db);
  await createOutsider(t.database.db);
  outbox = path.join(t.config.dataDir, 'outbox');
});
afterAll(async () => {
  await t.close();
});

async function tokenOfUser(username: string): Promise<string> {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  return (await createSession(t.database.db, user.id, 60_000)).token;
}

async function send(caller: Caller | { username: string }, request: InjectOptions) {
  if (caller === 'device') return t.app.inject({ ...request, headers: { ...request.headers, ...bearer((await newDeviceToken(t.database.db, ids.liveEventId)).token) } });
  const username = typeof caller === 'object' ? caller.username : caller === 'anonymous' ? null : USERNAMES[caller];
  const headers = username ? { ...request.headers, ...bearer(await tokenOfUser(username)) } : request.headers;
  return t.app.inject({ ...request, headers });
}

/** Invites `email` as the demo admin and returns the token of the link mailed to it. */
async function invite(email: string, role: 'staff' | 'supervisor' | 'admin' = 'staff'): Promise<string> {
  const before = (await mailsTo(email)).length;
  const response = await send('admin', { method: 'POST', url: api(teamPaths.invitations(ids.organizationId)), payload: { email, role } });
  expect(response.statusCode, response.body).toBe(201);
  await t.app.mailer.drain();
  const mails = await vi.waitFor(
    async () => {
      const found = await mailsTo(email);
      expect(found.length).toBe(before + 1);
      return found;
    },
    { timeout: 15_000, interval: 20 },
  );
  const link = /https:\/\/gate\.example\.com\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1) ?? '');
  if (!link?.[1]) throw new Error('no invitation link in the mail');
  return link[1];
}

async function mailsTo(email: string): Promise<string[]> {
  const names = (await readdir(outbox).catch(() => [])).sort();
  const mails = await Promise.all(names.map((name) => readFile(path.join(outbox, name), 'utf8')));
  return mails.map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).filter((mail) => mail.includes(`To: ${email}`));
}

async function newAccount(username: string, email: string): Promise<void> {
  await createUser(t.database.db, { username, email, password: 'a-long-password', displayName: `Guest ${username}`, country: 'GB' });
}

async function accept(username: string, token: string) {
  return send({ username }, { method: 'POST', url: api(teamPaths.acceptInvitation), payload: { token } });
}

describe(`only the organization's admins list the team, invite and revoke; a link is accepted by its own address's account and joined by anyone holding it, never by a door device (${TEST_DATABASE_KIND})`, () => {
  const rows: Array<{ endpoint: string; request: () => Promise<InjectOptions>; expected: Record<Caller, number> }> = [
    {
      endpoint: 'GET team',
      request: async () => ({ method: 'GET', url: api(teamPaths.team(ids.organizationId)) }),
      expected: { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin: 200, device: 403 },
    },
    {
      endpoint: 'POST invitations',
      request: async () => ({ method: 'POST', url: api(teamPaths.invitations(ids.organizationId)), payload: { email: `matrix-${Math.random().toString(36).slice(2)}@example.org`, role: 'staff' } }),
      expected: { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin: 201, device: 403 },
    },
    {
      endpoint: 'POST revoke',
      request: async () => {
        const email = `revoke-${Math.random().toString(36).slice(2)}@example.org`;
        await invite(email);
        const [row] = await t.database.db.select({ id: invitations.id }).from(invitations).where(eq(invitations.email, email));
        return { method: 'POST', url: api(teamPaths.revokeInvitation(row?.id ?? '')) };
      },
      expected: { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin: 200, device: 403 },
    },
    {
      // A live link for an address none of the callers has: every account is refused (it is not
      // theirs), a door device before that (docs/decisions/107).
      endpoint: 'POST accept (a live link for another address)',
      request: async () => ({ method: 'POST', url: api(teamPaths.acceptInvitation), payload: { token: await invite(`accept-${Math.random().toString(36).slice(2)}@example.org`) } }),
      expected: { anonymous: 401, otherOrganization: 403, staff: 403, supervisor: 403, admin: 403, device: 403 },
    },
    {
      // Joining makes a new account from the link alone: whoever sends it, signed in or a device,
      // only the new account joins (the caller's own account and device are untouched).
      endpoint: 'POST join (a live link)',
      request: async () => {
        const name = `joiner${Math.random().toString(36).slice(2, 10)}`;
        return { method: 'POST', url: api(teamPaths.joinWithNewAccount), payload: { token: await invite(`${name}@example.org`), name: 'Jo Iner', username: name, password: 'a-long-password' } };
      },
      expected: { anonymous: 200, otherOrganization: 200, staff: 200, supervisor: 200, admin: 200, device: 200 },
    },
  ];
  for (const row of rows) {
    for (const caller of CALLERS) {
      test(`${row.endpoint}: ${caller} gets ${row.expected[caller]}`, async () => {
        const response = await send(caller, await row.request());
        expect(response.statusCode, response.body).toBe(row.expected[caller]);
        if (response.statusCode >= 400) ApiErrorBody.parse(response.json());
      });
    }
  }
});

test('an invited address gets a link by mail; its account accepts it and joins with the role; the link works once', async () => {
  const token = await invite('rosa@example.org', 'supervisor');
  const team = Team.parse((await send('admin', { method: 'GET', url: api(teamPaths.team(ids.organizationId)) })).json());
  expect(team.invitations.find((invitation) => invitation.email === 'rosa@example.org')).toMatchObject({ role: 'supervisor', invitedBy: DEMO_USER.displayName });

  await newAccount('rosa', 'Rosa@Example.org');
  const accepted = await accept('rosa', token);
  expect(accepted.statusCode, accepted.body).toBe(200);
  expect(AcceptInvitationResponse.parse(accepted.json())).toMatchObject({ organizationId: ids.organizationId, role: 'supervisor' });
  const organizations = OrganizationList.parse((await send({ username: 'rosa' }, { method: 'GET', url: api(apiPaths.organizations) })).json());
  expect(organizations.map((organization) => [organization._id, organization.role])).toEqual([[ids.organizationId, 'supervisor']]);

  const again = await accept('rosa', token);
  expect(again.statusCode).toBe(400);
  const after = Team.parse((await send('admin', { method: 'GET', url: api(teamPaths.team(ids.organizationId)) })).json());
  expect(after.invitations.map((invitation) => invitation.email)).not.toContain('rosa@example.org');
  expect(after.members.find((member) => member.username === 'rosa')?.role).toBe('supervisor');

  const audit = await t.database.db.select({ action: auditEntries.action, actorName: auditEntries.actorName }).from(auditEntries).where(and(eq(auditEntries.organizationId, ids.organizationId), isNull(auditEntries.eventId)));
  expect(audit).toEqual(expect.arrayContaining([{ action: 'member.invited', actorName: DEMO_USER.displayName }, { action: 'invitation.accepted', actorName: 'Guest rosa' }]));
});

test('another account cannot use the link (403), a revoked or expired link does nothing (400), and a member cannot be invited again (409 at the e-mail)', async () => {
  const token = await invite('milo@example.org');
  await newAccount('milo', 'milo@example.org');
  await newAccount('mallory', 'mallory@example.org');
  const stolen = await accept('mallory', token);
  expect(stolen.statusCode).toBe(403);
  expect(ApiErrorBody.parse(stolen.json()).message).toContain('milo@example.org');

  // Inviting the address again revokes the first link.
  const second = await invite('milo@example.org');
  expect((await accept('milo', token)).statusCode).toBe(400);

  await t.database.db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.email, 'milo@example.org'));
  expect((await accept('milo', second)).statusCode).toBe(400);

  const third = await invite('milo@example.org', 'admin');
  const team = Team.parse((await send('admin', { method: 'GET', url: api(teamPaths.team(ids.organizationId)) })).json());
  const pending = team.invitations.find((invitation) => invitation.email === 'milo@example.org');
  expect((await send('admin', { method: 'POST', url: api(teamPaths.revokeInvitation(pending?.id ?? '')) })).statusCode).toBe(200);
  expect((await accept('milo', third)).statusCode).toBe(400);

  const member = await send('admin', { method: 'POST', url: api(teamPaths.invitations(ids.organizationId)), payload: { email: DEMO_COLLEAGUE.email.toUpperCase(), role: 'staff' } });
  expect(member.statusCode).toBe(409);
  expect(ApiErrorBody.parse(member.json())).toMatchObject({ code: 'conflict', field: 'body.email' });
  const badEmail = await send('admin', { method: 'POST', url: api(teamPaths.invitations(ids.organizationId)), payload: { email: 'not-an-address', role: 'staff' } });
  expect(ApiErrorBody.parse(badEmail.json())).toMatchObject({ code: 'validation_failed', field: 'body.email' });
});

test("a door device cannot accept a link even when it is addressed to the device's own account: 403, and it joins nothing", async () => {
  const { token: deviceToken } = await newDeviceToken(t.database.db, ids.liveEventId, 'Inviting gate');
  const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(deviceToken) });
  const [account] = await t.database.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, UserMe.parse(me.json()).id));
  expect(account?.email).toMatch(/@devices\.invalid$/);
  const token = await invite(account?.email ?? '', 'admin');
  const refused = await t.app.inject({ method: 'POST', url: api(teamPaths.acceptInvitation), headers: bearer(deviceToken), payload: { token } });
  expect(refused.statusCode, refused.body).toBe(403);
  expect(ApiErrorBody.parse(refused.json()).code).toBe('forbidden');
  const joined = await t.database.db.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.userId, account?.id ?? ''));
  expect(joined).toEqual([]);
  const pending = await t.database.db.select({ acceptedAt: invitations.acceptedAt }).from(invitations).where(eq(invitations.email, account?.email ?? ''));
  expect(pending).toEqual([{ acceptedAt: null }]);
});

test('someone without an account joins from the link: the account has the invited address, signs in and is a member; a taken username is refused and the link stays live', async () => {
  const token = await invite('nadia@example.org', 'staff');
  const taken = await t.app.inject({ method: 'POST', url: api(teamPaths.joinWithNewAccount), payload: { token, name: 'Nadia Door', username: DEMO_COLLEAGUE.username, password: 'nadia-at-the-door' } });
  expect(taken.statusCode).toBe(409);
  expect(ApiErrorBody.parse(taken.json())).toMatchObject({ code: 'conflict', field: 'body.username' });

  const joined = await t.app.inject({ method: 'POST', url: api(teamPaths.joinWithNewAccount), payload: { token, name: 'Nadia Door', username: 'nadia', password: 'nadia-at-the-door' } });
  expect(joined.statusCode, joined.body).toBe(200);
  expect(AcceptInvitationResponse.parse(joined.json())).toMatchObject({ organizationId: ids.organizationId, role: 'staff' });
  const [account] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.username, 'nadia'));
  expect(account?.email).toBe('nadia@example.org');
  const signedIn = await login(t.app, 'nadia', 'nadia-at-the-door');
  const organizations = OrganizationList.parse((await t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(signedIn) })).json());
  expect(organizations.map((organization) => organization._id)).toEqual([ids.organizationId]);

  const reused = await t.app.inject({ method: 'POST', url: api(teamPaths.joinWithNewAccount), payload: { token, name: 'Nadia Again', username: 'nadia2', password: 'nadia-at-the-door' } });
  expect(reused.statusCode).toBe(400);
  expect(await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'nadia2'))).toEqual([]);
});
