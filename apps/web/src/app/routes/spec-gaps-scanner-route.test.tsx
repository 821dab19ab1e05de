/**
 * SPEC §3 scan results: kept in memory, never written to the device storage of SPEC §3; the latest
 * is kept for a reload in the tab's session storage (decision 027), and so is the day's 'Recent
 * scans' list (issue 10, decision 034).
 */
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

test('scan results are not written to device storage, which holds just the user and the three selections; the tab keeps the latest and the recent scans', async () => {
  const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1001{Enter}');
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  const keys = Object.keys(localStorage).sort();
  expect(keys).toEqual(['selectedDay', 'selectedEvent', 'selectedOrganization', 'user']);
  expect(Object.values(localStorage).join('\n')).not.toContain('GC-1001');
  expect(Object.keys(sessionStorage).sort()).toEqual(['gatecheck.recentScans', 'gatecheck.scanner']);

  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1002{Enter}');
  expect(await screen.findByText('GC-1002...')).toBeInTheDocument();
  expect(sessionStorage.getItem('gatecheck.scanner')).toContain('GC-1002');
  expect(sessionStorage.getItem('gatecheck.scanner')).not.toContain('GC-1001');
  expect(sessionStorage.getItem('gatecheck.recentScans')).toContain('GC-1001');
  expect(Object.values(localStorage).join('\n')).not.toContain('GC-100');
});
