/**
 * 'Logout' with scans still queued offline on this device (docs/decisions/076): they are sent first;
 * what cannot be sent is counted in a dialog that offers to stay signed in. Real IndexedDB
 * (fake-indexeddb) and the real outbox; the server is MSW, its bodies parsed by the contract.
 */
import { apiPaths } from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan, readOutbox, uploadOutbox } from '@/features/scanner/offline/outbox.ts';
import { sendBeforeLogout } from '@/features/scanner/offline/send-before-logout.ts';
import { testOrganization, testUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { COLLEAGUE_ID, offlineScan, serveUpload } from '@/test/outbox-fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const onEventSelect = { route: '/event-select', selection: { organization: testOrganization } };

/** Records each logout call in `calls`. */
function serveLogout(calls: string[]) {
  server.use(
    http.post(apiUrl(apiPaths.logout), () => {
      calls.push('logout');
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

/**
 * The event list with the upload endpoint down (no answer) and the logout calls recorded; taps
 * 'Logout' and returns the dialog it opens.
 */
async function tapLogoutWithServerDown() {
  serveUpload(() => false);
  const calls: string[] = [];
  serveLogout(calls);
  const rendered = renderApp(onEventSelect);
  await screen.findByRole('button', { name: /Harbour Sound 2026/ });
  await rendered.user.click(screen.getByRole('button', { name: 'Logout' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Scans not sent yet' });
  return { ...rendered, calls, dialog };
}

/** An upload endpoint that never answers (a black-hole door network); counts what arrives. */
function serveHangingUpload() {
  let arrived = 0;
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async () => {
      arrived += 1;
      await delay('infinite');
      return HttpResponse.json({});
    }),
  );
  return { arrived: () => arrived };
}

async function queuedCodes(): Promise<string[]> {
  return (await readOutbox(await openOfflineDb())).map((item) => item.code);
}

describe('Logout with scans queued offline (decision 076)', () => {
  test("sends this user's queued scans before it logs out", async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1));
    await queueOfflineScan(db, offlineScan(2));
    const calls: string[] = [];
    let isUp = false;
    // The screen's own sender tries at once and fails; its next try is a second away.
    const upload = serveUpload(
      () => isUp,
      () => calls.push('upload'),
    );
    serveLogout(calls);
    const { user, router } = renderApp(onEventSelect);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    await waitFor(() => expect(upload.attempts()).toBeGreaterThanOrEqual(1));

    isUp = true;
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls).toEqual(['upload', 'logout']);
    expect(upload.batches.flat().map((scan) => scan.code)).toEqual(['GOOD-1', 'GOOD-2']);
    expect(await queuedCodes()).toEqual([]);
  });

  test("the screen's sender trying again while the logout sends does not send the same scans a second time", async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1));
    await queueOfflineScan(db, offlineScan(2));
    const calls: string[] = [];
    let isUp = false;
    const upload = serveUpload(
      () => isUp,
      () => {
        calls.push('upload');
        // The screen's sender starts a round now, as its retry timer or the browser's 'online' does,
        // while the logout's batch is on the wire.
        if (calls.length === 1) window.dispatchEvent(new Event('online'));
      },
    );
    serveLogout(calls);
    const { user } = renderApp(onEventSelect);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    await waitFor(() => expect(upload.attempts()).toBeGreaterThanOrEqual(1));

    isUp = true;
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(calls).toEqual(['upload', 'logout']);
    expect(upload.batches.flat().map((scan) => scan.code)).toEqual(['GOOD-1', 'GOOD-2']);
    expect(await queuedCodes()).toEqual([]);
  });

  test('with the server unreachable it says how many scans are not sent, and Stay signed in keeps the session and the scans', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1));
    await queueOfflineScan(db, offlineScan(2, { verdict: 'denied', reason: 'already_checked_in' }));
    await queueOfflineScan(db, offlineScan(3, { userId: COLLEAGUE_ID }));
    const { user, router, calls, dialog } = await tapLogoutWithServerDown();
    // Only this user's scans count: the logout is about them (a colleague's are sent by whoever is signed in).
    expect(dialog).toHaveAccessibleDescription(
      '2 scans made offline on this device have not reached the server. Stay signed in until they are sent: after a logout they wait on this device until someone from your team signs in here.',
    );
    const stay = within(dialog).getByRole('button', { name: 'Stay signed in' });
    await waitFor(() => expect(stay).toHaveFocus());

    await user.click(stay);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/event-select');
    expect(calls).toEqual([]);
    expect(localStorage.getItem('user')).not.toBeNull();
    expect(await queuedCodes()).toEqual(['GOOD-1', 'GOOD-2', 'GOOD-3']);
  });

  test('Log out anyway logs out and keeps the scans on the device for the next sign-in', async () => {
    await queueOfflineScan(await openOfflineDb(), offlineScan(1));
    const { user, router, calls, dialog } = await tapLogoutWithServerDown();
    expect(dialog).toHaveAccessibleDescription(
      '1 scan made offline on this device has not reached the server. Stay signed in until it is sent: after a logout it waits on this device until someone from your team signs in here.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Log out anyway' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls).toEqual(['logout']);
    expect((await readOutbox(await openOfflineDb())).map((item) => [item.code, item.userId])).toEqual([['GOOD-1', testUser.id]]);
  });

  test("another user's queued scans do not hold up this user's logout", async () => {
    await queueOfflineScan(await openOfflineDb(), offlineScan(1, { userId: COLLEAGUE_ID }));
    serveUpload(() => false);
    const { user, router } = renderApp(onEventSelect);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await queuedCodes()).toEqual(['GOOD-1']);
  });

  test("while the logout sends the scans, the button says 'Sending scans...' and cannot be tapped again", async () => {
    await queueOfflineScan(await openOfflineDb(), offlineScan(1));
    serveHangingUpload();
    const { user } = renderApp(onEventSelect);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const sending = await screen.findByRole('button', { name: 'Sending scans...' });
    expect(sending).toBeDisabled();
  });
});

describe('sendBeforeLogout', () => {
  test('gives up on a server that does not answer, and counts the scans still waiting', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1));
    await queueOfflineScan(db, offlineScan(2));
    const upload = serveHangingUpload();
    await expect(sendBeforeLogout(testUser.id, { timeoutMs: 50 })).resolves.toBe(2);
    expect(upload.arrived()).toBe(1);
    expect(await queuedCodes()).toEqual(['GOOD-1', 'GOOD-2']);
  });

  test('waits for the upload round under way rather than sending the same scans beside it, and still answers by its deadline when that round hangs', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1));
    await queueOfflineScan(db, offlineScan(2));
    // The scanner's round, sent before the network black-holed: no answer comes.
    let answerHung = () => {};
    let isHungSent = false;
    const hung = uploadOutbox(db, testUser.id, async (_eventId, _day, scans) => {
      isHungSent = true;
      await new Promise<void>((resolve) => {
        answerHung = resolve;
      });
      return { receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' as const })) };
    });
    await waitFor(() => expect(isHungSent).toBe(true));
    const upload = serveUpload();

    await expect(sendBeforeLogout(testUser.id, { timeoutMs: 50 })).resolves.toBe(2);
    expect(upload.attempts()).toBe(0);
    expect(await queuedCodes()).toEqual(['GOOD-1', 'GOOD-2']);
    answerHung();
    expect(await hung).toMatchObject({ sent: 2 });
  });

  test('with nothing of this user queued it sends nothing', async () => {
    await queueOfflineScan(await openOfflineDb(), offlineScan(1, { userId: COLLEAGUE_ID }));
    const upload = serveUpload();
    await expect(sendBeforeLogout(testUser.id)).resolves.toBe(0);
    expect(upload.attempts()).toBe(0);
  });
});
