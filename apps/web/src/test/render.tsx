/**
 * Rendering helpers for screen tests: the real providers (a fresh session store, a fresh
 * QueryClient with retries off, the toaster) around a memory router; every screen but sign-in under
 * the query layer, as in the app (app/query-layer.tsx).
 *
 * - `renderWithProviders(ui, options)` mounts `ui` at `options.route` (default '/'); any other path
 *   renders a heading 'Test page <path>' so redirects are visible.
 * - `renderApp(options)` mounts the real routes of the app.
 *
 * By default the visitor is signed in as `testUser` (stored, with its token, and the session seeded
 * without a server check). `user: null` signs out; `checkSession: true` leaves the session to the
 * real check (GET /users/me through MSW) against whatever user is stored.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { createElement, type ComponentType, type ReactElement } from 'react';
import { UNSAFE_createMemoryHistory, unstable_HistoryRouter as HistoryRouter, useLocation, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers.tsx';
import { lazyScreens } from '@/app/lazy-screens.ts';
import { WithQueryClient } from '@/app/query-layer.tsx';
import { AppRoutes, createRoutes, ScreenErrorBoundary, type LazyScreenName } from '@/app/router.tsx';
import { createSessionStore, type SessionStore } from '@/features/auth/session-store.ts';
import type { EventItem, OrganizationItem, SelectedDay, User } from '@/lib/entities.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { readyQueryClient, type QueryClientSlot } from '@/lib/query-client-slot.ts';
import { selectDay, selectEvent, selectOrganization } from '@/lib/selection.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testUser } from './fixtures.ts';

export interface RenderOptions {
  /** Initial URL. Default '/'. */
  route?: string;
  /** Signed-in user; null for a signed-out visitor. Default `testUser`. */
  user?: User | null;
  /** Run the real session check instead of seeding the session. Default false. */
  checkSession?: boolean;
  /** Stored selections (SPEC §3). */
  selection?: { organization?: OrganizationItem; event?: EventItem; day?: SelectedDay };
  /** Defaults to a fresh client with retries off. */
  queryClient?: QueryClient;
  /** Where the app gets its query client; default: `queryClient`, loaded already. */
  queryClientSlot?: QueryClientSlot;
  /** renderWithProviders only: shown when `ui` fails to render (as the app's error screen is). */
  errorElement?: ReactElement;
}

function TestPage() {
  const location = useLocation();
  return (
    <main>
      <h1>Test page {location.pathname}</h1>
    </main>
  );
}

function renderRouter(routeObjects: RouteObject[], options: RenderOptions) {
  const { route = '/', user = testUser, checkSession = false, selection = {} } = options;
  const queryClient = options.queryClient ?? createQueryClient({ retry: false });

  if (user) void writeStoredUser(user);
  const queryClientSlot = options.queryClientSlot ?? readyQueryClient(queryClient);
  const session: SessionStore = createSessionStore({ queryClient: queryClientSlot, initial: checkSession ? undefined : user ? { user } : { user: null } });
  if (selection.organization) void selectOrganization(selection.organization);
  if (selection.event) void selectEvent(selection.event);
  if (selection.day) void selectDay(selection.day);

  const history = UNSAFE_createMemoryHistory({ initialEntries: [route], v5Compat: true });
  const visited: string[] = [history.location.pathname];
  // A memory history takes one listener (the router's): each change is recorded on its way there.
  const listen = history.listen.bind(history);
  history.listen = (listener) =>
    listen((update) => {
      if (visited.at(-1) !== update.location.pathname) visited.push(update.location.pathname);
      listener(update);
    });
  /** The router as tests see it: where it is, and a way to go elsewhere. */
  const router = {
    get state() {
      return { location: history.location };
    },
    navigate: (to: string) => {
      history.push(to);
    },
  };

  const result = render(
    <AppProviders session={session} queryClient={queryClientSlot}>
      <HistoryRouter history={history}>
        <AppRoutes routeObjects={routeObjects} />
      </HistoryRouter>
    </AppProviders>,
  );
  return { ...result, router, queryClient, session, visited, user: userEvent.setup() };
}

/** Renders `ui` at `options.route` inside the app providers. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const pathname = new URL(options.route ?? '/', 'http://test.local').pathname;
  return renderRouter(
    [
      {
        path: pathname,
        element: <WithQueryClient>{options.errorElement ? <ScreenErrorBoundary fallback={options.errorElement}>{ui}</ScreenErrorBoundary> : ui}</WithQueryClient>,
      },
      { path: '*', element: <TestPage /> },
    ],
    options,
  );
}

/**
 * The app's routes with every lazy screen already loaded (issue 13 item 2): the same tree and the
 * same components, each lazy screen's module loaded once here, so a screen test can find its screen
 * right after rendering, as a browser does once the prefetch after sign-in has run. The lazy
 * loading itself is covered by router.test.tsx and the end-to-end suite.
 */
async function loadLazyScreens(): Promise<RouteObject[]> {
  const names = Object.keys(lazyScreens) as LazyScreenName[];
  const screens = new Map<LazyScreenName, ComponentType>(
    await Promise.all(names.map(async (name): Promise<[LazyScreenName, ComponentType]> => [name, await lazyScreens[name]()])),
  );
  // Under the app's query client, as router.tsx puts every lazy screen (query-layer.tsx).
  return createRoutes((name) => <WithQueryClient>{createElement(screens.get(name) as ComponentType)}</WithQueryClient>);
}

const loadedRoutes = await loadLazyScreens();

/** Renders the whole app (the real routes, lazy screens loaded) at `options.route`. */
export function renderApp(options: RenderOptions = {}) {
  return renderRouter(loadedRoutes, options);
}
