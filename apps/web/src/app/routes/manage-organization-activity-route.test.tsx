/**
 * The organization's Activity page (docs/decisions/126) against a contract-shaped fake server (msw):
 * reached from /manage, it says who changed the door team or a device, when, and each field before
 * and after (roles in the team page's words).
 */
import { managePaths, type OrganizationAuditEntry } from '@gatecheck/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { apiUrl, server } from '@/test/msw-server.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };

test("an admin opens the organization's Activity from /manage: a role change and a removed device, each with who and before → after", { timeout: 20_000 }, async () => {
  const entries: OrganizationAuditEntry[] = [
    {
      id: 'o2',
      at: '2026-11-27T10:05:00.000Z',
      actor: { kind: 'user', name: 'Dana Admin' },
      action: 'member.role_changed',
      before: { userId: 'u1', name: 'Sam Door', email: 'sam@example.com', role: 'staff' },
      after: { userId: 'u1', name: 'Sam Door', email: 'sam@example.com', role: 'supervisor' },
    },
    {
      id: 'o1',
      at: '2026-11-27T10:00:00.000Z',
      actor: { kind: 'cli', name: 'admin CLI (ops)' },
      action: 'device.revoked',
      before: { deviceId: 'd1', name: 'Gate 3 phone', eventId: 'e1' },
      after: { deviceId: 'd1', name: 'Gate 3 phone', eventId: 'e1', revokedAt: '2026-11-27T10:00:00.000Z' },
    },
  ];
  server.use(
    http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json([])),
    http.get(apiUrl(managePaths.organizationActivity(testOrganization.id)), () => HttpResponse.json<OrganizationAuditEntry[]>(entries)),
  );
  const { user } = renderApp({ route: '/manage', selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('link', { name: 'Team and devices activity' }));
  const [roleChange, device] = await screen.findAllByRole('listitem');
  if (!roleChange || !device) throw new Error('two entries expected');
  expect(within(roleChange).getByText('Changed a role')).toBeInTheDocument();
  expect(within(roleChange).getByText(/Dana Admin/)).toBeInTheDocument();
  expect(within(roleChange).getByText('Staff → Supervisor')).toBeInTheDocument();
  expect(within(roleChange).getByText('sam@example.com')).toBeInTheDocument();
  expect(within(device).getByText('Removed a door device')).toBeInTheDocument();
  expect(within(device).getByText(/admin CLI \(ops\)/)).toBeInTheDocument();
  expect(within(device).getByText('— → Removed')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
});
