/**
 * The check of a stored organization at sign-in (SPEC §2's furthest step on a shared device) clears
 * the previous user's choices, but never a choice made while it waited for the memberships.
 */
import { apiPaths } from '@gatecheck/contract';
import { delay, http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { createQueryClient } from '@/lib/query-client.ts';
import { getSelection, selectOrganization } from '@/lib/selection.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { keepOnlyOwnSelection } from './keep-own-selection.ts';

const strangersOrganization = { ...testOrganization, id: 'org-of-someone-else', name: 'Someone Else Ltd' };

test("a stored organization the user is no member of is cleared", async () => {
  server.use(http.get(apiUrl(apiPaths.organizations), () => HttpResponse.json([])));
  await selectOrganization(strangersOrganization);
  await keepOnlyOwnSelection(createQueryClient({ retry: false }));
  expect(getSelection().organization).toBeNull();
});

test('a choice made while the memberships were asked for is left as it is', async () => {
  server.use(
    http.get(apiUrl(apiPaths.organizations), async () => {
      await delay(100);
      return HttpResponse.json([]);
    }),
  );
  await selectOrganization(strangersOrganization);
  const check = keepOnlyOwnSelection(createQueryClient({ retry: false }));
  // Meanwhile the organization is chosen anew (in the app: never during a sign-in; in the web tests,
  // by the next test while an earlier test's sign-in still finishes).
  await selectOrganization(testOrganization);
  await check;
  expect(getSelection().organization).toEqual(testOrganization);
});
