/**
 * An event's Activity page (docs/decisions/126) against a contract-shaped fake server (msw): the
 * newest page first, 'Show older' asks for the entries older than the last one shown and adds
 * them below, and goes away after the last (short) page.
 */
import { ActivityQuery, type AuditEntry, managePaths } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { ACTIVITY_PAGE_SIZE } from '@/features/manage/api.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };
const EVENT_ID = 'ev-activity';

/** Entry `index` (0 newest): a ticket type added, one minute older than the one before. */
function entry(index: number): AuditEntry {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    at: new Date(Date.UTC(2026, 10, 27, 12, 0) - index * 60_000).toISOString(),
    actor: { kind: 'user', name: 'Dana Admin' },
    action: 'ticket-type.created',
    before: null,
    after: { name: `Type ${index}`, checkInNote: '', requiresAttention: false, days: null },
  };
}

test("the Activity page shows the newest entries; 'Show older' adds the ones before them until there are none", { timeout: 20_000 }, async () => {
  const trail = Array.from({ length: ACTIVITY_PAGE_SIZE + 2 }, (_, index) => entry(index));
  const asked: Array<{ before?: string | undefined; limit: number }> = [];
  server.use(
    http.get(apiUrl(managePaths.eventActivity(EVENT_ID)), ({ request }) => {
      const query = ActivityQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
      asked.push(query);
      const start = query.before ? trail.findIndex((candidate) => candidate.id === query.before) + 1 : 0;
      return HttpResponse.json<AuditEntry[]>(trail.slice(start, start + query.limit));
    }),
  );
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/activity`, selection: { organization: adminOrganization } });
  expect(await screen.findByText('Type 0')).toBeInTheDocument();
  expect(screen.getByText(`Type ${ACTIVITY_PAGE_SIZE - 1}`)).toBeInTheDocument();
  expect(screen.queryByText(`Type ${ACTIVITY_PAGE_SIZE}`)).not.toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Show older' }));
  expect(await screen.findByText(`Type ${ACTIVITY_PAGE_SIZE + 1}`)).toBeInTheDocument();
  expect(screen.getAllByRole('listitem')).toHaveLength(ACTIVITY_PAGE_SIZE + 2);
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument());
  expect(asked).toEqual([
    { limit: ACTIVITY_PAGE_SIZE },
    { before: trail[ACTIVITY_PAGE_SIZE - 1]?.id, limit: ACTIVITY_PAGE_SIZE },
  ]);
});
