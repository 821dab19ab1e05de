/** The lazy routes (issue 13 item 2, docs/decisions/048 and 061): only sign-in and the shell are eager. */
import { act, render, screen } from '@testing-library/react';
import { isValidElement, lazy, useState, type ReactNode } from 'react';
import { MemoryRouter, type RouteObject } from 'react-router';
import { expect, test, vi } from 'vitest';
import { createSessionStore } from '@/features/auth/session-store.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { readyQueryClient } from '@/lib/query-client-slot.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testUser } from '@/test/fixtures.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes, routes } from './router.tsx';

function flatten(routeObjects: RouteObject[]): RouteObject[] {
  return routeObjects.flatMap((route) => [route, ...flatten(route.children ?? [])]);
}

/** React's marker of a `React.lazy` component, read from one made here (React keeps it on `$$typeof`). */
const LAZY_TYPE = (lazy(() => new Promise<never>(() => undefined)) as unknown as { $$typeof: symbol }).$$typeof;

/** True when the route's element is a `React.lazy` component (its code loads on first render). */
function isLazy(route: RouteObject): boolean {
  const element = route.element;
  return isValidElement(element) && typeof element.type === 'object' && element.type !== null && (element.type as { $$typeof?: symbol }).$$typeof === LAZY_TYPE;
}

/** The app's providers, signed in as `testUser`, with a fresh query client (loaded). */
function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => readyQueryClient(createQueryClient({ retry: false })));
  const [session] = useState(() => createSessionStore({ queryClient, initial: { user: testUser } }));
  return (
    <AppProviders session={session} queryClient={queryClient}>
      {children}
    </AppProviders>
  );
}

function renderAt(path: string) {
  return render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </Providers>,
  );
}

test('every screen with a path but /login and / is loaded on demand', () => {
  const withPath = flatten(routes).filter((route) => route.path !== undefined);
  const eager = withPath.filter((route) => !isLazy(route)).map((route) => route.path);
  expect(eager.sort()).toEqual(['/', '/login']);
  expect(withPath.length).toBeGreaterThan(8);
});

test('a lazy screen is loaded and shown when its path is opened', async () => {
  await writeStoredUser(testUser);
  renderAt('/organization-select');
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Organization' })).toBeInTheDocument();
});

test('a screen that fails to render shows the error screen under the app\'s root, not a blank page', async () => {
  // React reports the caught render error on the console; it is the expected outcome here.
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  await writeStoredUser(testUser);
  function Broken(): never {
    throw new Error('render defect');
  }
  const root = routes[0];
  render(
    <Providers>
      <MemoryRouter initialEntries={['/broken']}>
        <AppRoutes routeObjects={[{ element: root?.element, children: [{ path: '/broken', element: <Broken /> }] }]} />
      </MemoryRouter>
    </Providers>,
  );
  expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  quiet.mockRestore();
});

test("a screen whose code is slow to arrive shows 'Loading...' after a moment, not a blank page, and then the screen", async () => {
  await writeStoredUser(testUser);
  let arrive: (screen: { default: () => ReactNode }) => void = () => undefined;
  const Slow = lazy(() => new Promise<{ default: () => ReactNode }>((resolve) => (arrive = resolve)));
  const root = routes[0];
  render(
    <Providers>
      <MemoryRouter initialEntries={['/slow']}>
        <AppRoutes routeObjects={[{ element: root?.element, children: [{ path: '/slow', element: <Slow /> }] }]} />
      </MemoryRouter>
    </Providers>,
  );
  // Not at once, nor within a tenth of a second (a screen loaded from the cache must not flicker;
  // a slow machine only makes the message later) ...
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  // ... but once the wait is noticeable.
  expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
  arrive({ default: () => <h1>Slow screen</h1> });
  expect(await screen.findByRole('heading', { name: 'Slow screen' })).toBeInTheDocument();
  expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
});
