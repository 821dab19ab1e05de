/** SPEC §3 scan results: kept in memory only, never written to storage. */
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

test('scan results are kept in memory only: storage holds just the user and the three selections', async () => {
  const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1001{Enter}');
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  const keys = Object.keys(localStorage).sort();
  expect(keys).toEqual(['selectedDay', 'selectedEvent', 'selectedOrganization', 'user']);
  expect(Object.values(localStorage).join('\n')).not.toContain('GC-1001');
});
