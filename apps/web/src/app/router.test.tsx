/** The lazy routes (issue 13 item 2, docs/decisions/048): only sign-in and the shell are eager. */
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { expect, test } from 'vitest';
import { createQueryClient } from '@/lib/query-client.ts';
import { sessionQueries } from '@/features/auth/api.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testUser } from '@/test/fixtures.ts';
import { AppProviders } from './providers.tsx';
import { routes } from './router.tsx';

function flatten(routeObjects: RouteObject[]): RouteObject[] {
  return routeObjects.flatMap((route) => [route, ...flatten(route.children ?? [])]);
}

test('every screen with a path but /login and / is loaded on demand', () => {
  const withPath = flatten(routes).filter((route) => route.path !== undefined);
  const eager = withPath.filter((route) => route.lazy === undefined).map((route) => route.path);
  expect(eager.sort()).toEqual(['/', '/login']);
  expect(withPath.length).toBeGreaterThan(8);
});

test('a lazy screen is loaded and shown when its path is opened', async () => {
  const queryClient = createQueryClient({ retry: false });
  await writeStoredUser(testUser);
  queryClient.setQueryData(sessionQueries.current().queryKey, { user: testUser });
  const router = createMemoryRouter(routes, { initialEntries: ['/organization-select'] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Organization' })).toBeInTheDocument();
});
