/**
 * /scanner (SPEC §2): the event and day being scanned, 'Start Scanning' to reveal the camera and the
 * manual field, and the result card of the latest check; below, the day's 'Recent scans' (issue 10),
 * collapsed. Behaviour lives in features/scanner.
 *
 * Laid out for one hand at a door (issue 15 item 14): the verdict sits between the camera and the
 * manual field, in a slot of constant height, so it is in view whichever way the ticket came in and
 * nothing moves when it lands; when a verdict lands partly out of view, the verdict and the field are
 * scrolled into view together, clear of the toasts' band under the top of the screen (decision 093).
 *
 * Issue 10: the camera panel carries the 'Continuous scanning' switch (this device's setting, off =
 * SPEC §4) and, when the device has them, 'Torch' and 'Switch camera'; a keyboard-wedge scanner is
 * heard while this screen is open (features/scanner/use-scanner.ts, decisions 031 and 032).
 *
 * Issue 12: below the scanning controls, the day's offline line ('Last synced HH:MM', scans waiting to be sent,
 * 'Sync now'); with the server out of reach the scanner decides from the door list (verdicts marked
 * 'Offline'); below 'Recent scans', the day's 'Conflicts' (every member, decision 045).
 *
 * Issue 11, for supervisors and admins only: 'Find attendee' (features/supervisor) checks a guest in
 * by hand, shown here as a scan's verdict, and approvals in 'Recent scans' get 'Undo check-in'.
 * For admins only, 'Manage events' opens the management area (docs/decisions/105).
 */
import type { InfoScanResponse } from '@gatecheck/contract/doors';
import type { UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ScanLine, Square } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { paths } from '@/config/paths.ts';
import { prefetchQrDecoder } from '@/lib/qr/prefetch-qr-decoder.ts';
import type { EventItem, SelectedDay } from '@/lib/entities.ts';
import { selectScanMode, useSelection } from '@/lib/selection.ts';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import { notify } from '@/lib/toast.ts';
import { useBackButton } from '@/lib/native/back-button.ts';
import { useKeepAwake } from '@/lib/native/keep-awake.ts';
import { openCameraSettings } from '@/lib/native/native-camera-source.ts';
import { useTransparentWebView } from '@/lib/native/use-transparent-webview.ts';
import { useBack } from '@/lib/use-back.ts';
import { useNow } from '@/lib/use-now.ts';
import { whenIdle } from '@/lib/when-idle.ts';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';
import { useSwipeBack } from '@/lib/use-swipe-back.ts';
import { CameraPanel } from '@/features/scanner/components/camera-panel.tsx';
import { CameraPreview } from '@/features/scanner/components/camera-preview.tsx';
import { FeedbackSwitches } from '@/features/scanner/components/feedback-switches.tsx';
import { ManualEntryForm } from '@/features/scanner/components/manual-entry-form.tsx';
import { ScannerHeader } from '@/features/scanner/components/scanner-header.tsx';
import { VerdictFlash } from '@/features/scanner/components/verdict-flash.tsx';
import { VerdictSlot } from '@/features/scanner/components/verdict-slot.tsx';
import { recordUndo } from '@/features/scanner/recent-scans-query.ts';
import { useScannerScope } from '@/features/scanner/scanner-memory.ts';
import { useScanner } from '@/features/scanner/use-scanner.ts';
import { useListKeptCurrent } from '@/features/scanner/use-list-kept-current.ts';
import { OfflineStatus } from '@/features/scanner/components/offline-status.tsx';
import { useOfflineDoor } from '@/features/scanner/offline/use-offline-door.ts';
import { useSession } from '@/app/session-provider.tsx';
import { useVerdictFeedback } from '@/features/scanner/use-verdict-feedback.ts';
import { notTodayWarning } from '@/features/days/days-logic.ts';
import { canUseSupervisorTools } from '@/features/supervisor/supervisor-logic.ts';
import { canManage } from '@/features/manage/manage-access.ts';
import { InfoScanCard } from '@/features/supervisor/components/info-scan-card.tsx';
import { effectiveScanMode, ScanModeSwitch } from '@/features/scanner/components/scan-mode-switch.tsx';
import { useTranslation } from 'react-i18next';

/** The screen's lower part (Find attendee, Recent scans, Conflicts, ...): loaded after its first render (docs/decisions/119). */
const ScannerLists = lazy(() => import('./scanner-lists.tsx'));
/** The supervisor's calls (the info scan's among them), with their schemas: off the screen's first load (docs/decisions/128). */
const loadSupervisorApi = () => import('@/features/supervisor/api.ts');

/** The scanner screen; sends the user to /event-select when no event or day is chosen. */
export function ScannerRoute() {
  const { organization, event, day } = useSelection();
  const { user } = useSession();
  if (!event || !day) return <Navigate to={paths.eventSelect} replace />;
  // The event has several check-in lists and none is chosen yet: that choice first (docs/decisions/109).
  if (day.checkInList === null) return <Navigate to={paths.daySelect} replace />;
  return (
    <ScannerScreen
      // A door device moved to another list starts its door afresh: the door list it holds in memory
      // is its old list's (docs/decisions/127); the new one is read and downloaded on mount.
      key={user?.device ? `${user.device.eventId}|${user.device.checkInListId ?? ''}` : ''}
      event={event}
      day={day}
      canSupervise={organization !== null && canUseSupervisorTools(organization.role)}
      canManageEvents={organization !== null && canManage(organization.role)}
    />
  );
}

function ScannerScreen({ event, day, canSupervise, canManageEvents }: { event: EventItem; day: SelectedDay; canSupervise: boolean; canManageEvents: boolean }) {
  const scope = useScannerScope(event.id, day);
  const { checkInListId } = scope;
  const { t } = useTranslation();
  const goBack = useBack(paths.daySelect);
  useBackButton(goBack);
  useSwipeBack(goBack);
  // Issue 12: the door list, offline decisions and the outbox of this event day.
  const { user } = useSession();
  // Entry / Exit (at a list that allows re-entry) and Info (supervisors), docs/decisions/113: the
  // list's rules come from the event's lists (kept in IndexedDB, so offline too).
  const { data: lists } = useQuery(checkInListQueries.list(event.id));
  // Where the server records a scan naming no list: a door device's own list, else the event's first.
  const listLessListId = user?.device ? (user.device.checkInListId ?? lists?.lists[0]?.id) : lists?.lists[0]?.id;
  const offlineDoor = useOfflineDoor(event, day, user ? { id: user.id, name: user.name, listLessListId } : null);
  const listRule = checkInListId ? lists?.lists.find((list) => list.id === checkInListId) : lists?.lists[0];
  const canExit = listRule?.allowsReentry === true;
  const mode = effectiveScanMode(day.scanMode, canExit, canSupervise);
  const queryClient = useQueryClient();
  const [info, setInfo] = useState<{ response: InfoScanResponse; code: string } | null>(null);
  const onInfoCode = useCallback(
    async (code: string) => {
      try {
        const { infoScan } = await loadSupervisorApi();
        setInfo({ response: await infoScan(queryClient, event.id, day.day, code), code });
      } catch {
        // No answer, an error, or its code out of reach: an info scan needs the server (nothing to decide on the device).
        notify({ title: t('scanner.verificationError'), description: t('doors.infoNeedsServer'), variant: 'error' });
      }
    },
    [queryClient, event.id, day.day, t],
  );
  // In Info mode the info scan's code is fetched ahead, so the first scan waits for the server alone.
  useEffect(() => {
    if (mode === 'info') void loadSupervisorApi().catch(() => undefined);
  }, [mode]);
  const scanner = useScanner(event.id, day, offlineDoor, { direction: mode === 'exit' ? 'exit' : undefined, onInfoCode: mode === 'info' ? onInfoCode : undefined });
  // The web camera's decoder is downloaded ahead, once this screen has rendered and the browser is
  // idle (docs/decisions/110); the native camera (ML Kit) needs none.
  const isWebCamera = scanner.preview === 'video-element';
  useEffect(() => (isWebCamera ? whenIdle(prefetchQrDecoder) : undefined), [isWebCamera]);
  const { state } = scanner;
  // Lists added since the day was stored, or the stored list deleted: the list step (docs/decisions/151).
  useListKeptCurrent({ eventId: event.id, day, device: user?.device ?? undefined, isScanning: state.isScanning || state.isProcessing });
  // The screen stays on while the camera runs, and may sleep once it stops (decision 091).
  const isCameraOn = state.isScanning && (state.camera === 'active' || state.camera === 'starting');
  useKeepAwake(isCameraOn);
  // The native camera renders behind the WebView: let it show through while it runs.
  useTransparentWebView(scanner.preview === 'behind-webview' && isCameraOn);
  // Issue 10 items 2-3: the full-screen flash, tone and vibration of each new verdict.
  const feedback = useVerdictFeedback(state.latestResult);
  // A new verdict not wholly in view is scrolled into view: with the field when staff are typing
  // (the next code goes there), else alone (the camera buttons above it stay in view).
  const checkInRef = useRef<HTMLDivElement>(null);
  const verdictRef = useRef<HTMLDivElement>(null);
  const latestResultId = state.latestResult?.id;
  useEffect(() => {
    if (latestResultId === undefined) return;
    const isTyping = checkInRef.current?.contains(document.activeElement) ?? false;
    (isTyping ? checkInRef : verdictRef).current?.scrollIntoView({ block: 'nearest' });
  }, [latestResultId]);
  // Scrolled to alone (a camera scan), the verdict keeps 20 rem above it: the toasts' band (to about
  // 8.7 rem from the top with two toasts stacked) and, below it, Start Camera and the Continuous
  // switch (10.2 rem from Start Camera's top to the verdict's at 320x568), so the next tap is never
  // under a toast; the 14 rem card still fits a 568 px screen below it.
  const verdict = (
    <div ref={verdictRef} className="grid scroll-mt-80 scroll-mb-3">
      <VerdictSlot result={state.latestResult}>{mode === 'info' && info ? <InfoScanCard info={info.response} code={info.code} /> : undefined}</VerdictSlot>
    </div>
  );

  const dayWarning = notTodayWarning(event, day, useNow());
  const hasPainted = useAfterFirstPaint();
  // Issue 11: an undo marks the approval in the recent scans (the undo refreshed the day's data).
  const onUndone = (code: string, undo: UndoCheckInResponse) => {
    const undone = { at: undo.undoneAt, reason: undo.reason };
    recordUndo(queryClient, scope, code, undone);
    // Undone on the server: a scan decided on this device must not find the guest checked in.
    offlineDoor.checkInUndone(code);
    scanner.showUndone(code, undone);
  };

  return (
    // The top keeps the header below the status bar, the bottom the last actions above the gesture
    // bar (decision 091); toasts sit in a band under the header, not at the bottom (decision 093).
    <main className="mx-auto flex min-h-dvh w-full max-w-xl flex-col gap-3 bg-slate-50 px-3 pt-[calc(var(--screen-top)+0.75rem)] pb-[calc(var(--safe-bottom)+0.75rem)] text-slate-900 sm:gap-5 sm:px-4 sm:pt-[calc(var(--screen-top)+1rem)] sm:pb-[calc(var(--safe-bottom)+1rem)]">
      <ScannerHeader event={event} day={day} mode={mode} showsInside={canExit || (listRule?.capacity ?? null) !== null} dayWarning={dayWarning} approvalsWaiting={offlineDoor.approvalsWaitingCount} onBack={goBack} />

      {state.isScanning ? (
        <section aria-label={t('scanner.scannerRegion')} className="flex flex-col gap-3">
          <CameraPanel
            preview={<CameraPreview kind={scanner.preview} videoRef={scanner.videoRef} />}
            camera={state.camera}
            isProcessing={state.isProcessing}
            detectedCode={state.detectedCode}
            onStart={() => void scanner.startCamera()}
            onStop={scanner.stopCamera}
            controls={{
              hasTorch: scanner.camera.hasTorch,
              isTorchOn: scanner.camera.isTorchOn,
              onToggleTorch: scanner.camera.toggleTorch,
              canSwitch: scanner.camera.canSwitch,
              onSwitchCamera: scanner.camera.switchCamera,
            }}
            settings={
              <Switch checked={scanner.isContinuous} onCheckedChange={scanner.setContinuous}>
                {t('scanner.continuous')}
              </Switch>
            }
            onOpenSettings={scanner.isCameraDenied ? () => void openCameraSettings().catch(() => undefined) : undefined}
          />
          {/* The scroll margin above keeps the verdict clear of the toasts (the band under the top of the screen, 12 rem). */}
          <div ref={checkInRef} className="flex scroll-mt-48 scroll-mb-3 flex-col gap-3">
            {verdict}
            <ManualEntryForm isProcessing={state.isProcessing} onSubmit={scanner.submitManualCode} />
          </div>
          <Button size="large" variant="secondary" className="w-full" onClick={scanner.stopScanning}>
            <Square aria-hidden="true" className="size-5" />
            {t('scanner.stopScanning')}
          </Button>
          <FeedbackSwitches />
        </section>
      ) : (
        <>
          {(state.latestResult || (mode === 'info' && info)) && verdict}
          <Button size="large" className="min-h-16 w-full text-xl" onClick={scanner.startScanning}>
            <ScanLine aria-hidden="true" className="size-7" />
            {t('scanner.startScanning')}
          </Button>
        </>
      )}
      {/* Below the scanning controls, so the camera, the verdict and the field keep their place (docs/decisions/113). */}
      <ScanModeSwitch
        mode={mode}
        canExit={canExit}
        canInfo={canSupervise}
        onChange={(next) => {
          setInfo(null);
          void selectScanMode(next);
        }}
      />
      {/* Below the scanning controls, so the camera, the verdict and the field keep their place (issue 15 item 14). */}
      <OfflineStatus door={offlineDoor} />
      {/* The rest of the screen loads once the part above is on screen (scanner-lists.tsx, docs/decisions/119). */}
      {hasPainted && (
        <Suspense fallback={null}>
          <ScannerLists
            eventId={event.id}
            day={day.day}
            checkInListId={checkInListId}
            canSupervise={canSupervise}
            canManageEvents={canManageEvents}
            onCheckedIn={scanner.showVerdict}
            onUndone={onUndone}
            isWaitingToSend={offlineDoor.isWaitingToSend}
            isAdmittedHereUnsent={offlineDoor.hasUnsentAdmission}
          />
        </Suspense>
      )}
      <VerdictFlash result={feedback.flash} onDismiss={feedback.dismissFlash} />
    </main>
  );
}
