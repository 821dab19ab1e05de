/**
 * The scanner screen's behaviour (SPEC §4 states, §5 manual entry, §8 toasts): the state machine of
 * scanner-logic.ts driven by the camera, the manual field and the verify mutation. The open panel and
 * the latest verdict survive a reload of the tab (scanner-memory.ts, decision 027).
 */
import type { VerifyTicketResponse } from '@gatecheck/contract/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { CAMERA_FACING_MODE, DECODE_PAUSE_MS } from '@/config/constants.ts';
import { useDeviceSettings } from '@/lib/device-settings.ts';
import { useAppStateChange } from '@/lib/native/app-state.ts';
import type { SelectedDay } from '@/lib/entities.ts';
import { createKeyboardWedgeSource } from '@/lib/scan-source/keyboard-wedge-source.ts';
import type { ScanPreview } from '@/lib/scan-source/scan-source.ts';
import { ApiError } from '@/lib/api-client.ts';
import { notify } from '@/lib/toast.ts';
import { isNetworkFailure, isServerUnavailable, toVerdict, useVerifyTicketMutation, type TicketCheck } from './api.ts';
import { VERIFY_TIMEOUT_MS } from './offline/connectivity.ts';
import type { OfflineDoor } from './offline/use-offline-door.ts';
import { recordVerdict } from './recent-scans-query.ts';
import { useCameraSourceFactory } from './camera-source-context.tsx';
import { countDeviceCameras } from './choose-camera-source.ts';
import { useQrDecoderFactory } from './qr-decoder-context.tsx';
import { emptyScanGate, passCode, resumeAt } from './scan-gate.ts';
import {
  manualTicketCode,
  SCAN_OUTCOME_TOAST_ID,
  scannerReducer,
  toastCodeText,
  verdictNotice,
  type ScanResult,
  type ScannerState,
  type UndoneCheckIn,
} from './scanner-logic.ts';
import { keepScannerState, rememberUncheckedCode, restoreScannerState, takeUncheckedCode, useScannerScope } from './scanner-memory.ts';
import { t } from '@/lib/i18n/index.ts';

type Facing = 'environment' | 'user';

/** The camera controls of issue 10 item 6, each offered only when the device has it. */
export interface CameraControls {
  /** The running camera has a torch ('Torch' is shown). */
  hasTorch: boolean;
  isTorchOn: boolean;
  toggleTorch(): void;
  /** The device has more than one camera ('Switch camera' is shown). */
  canSwitch: boolean;
  /** Restarts the camera facing the other way (rear is the default, SPEC §9). */
  switchCamera(): void;
}

export interface Scanner {
  state: ScannerState;
  /** Attach to the preview `<video>` (used when `preview` is 'video-element'). */
  videoRef: RefObject<HTMLVideoElement | null>;
  /** How the camera shows its picture (see `ScanPreview`). */
  preview: ScanPreview;
  /** True after the last camera start was refused camera permission (native: offer the settings). */
  isCameraDenied: boolean;
  startScanning(): void;
  stopScanning(): void;
  startCamera(): Promise<void>;
  stopCamera(): void;
  /** Verifies a typed ticket code; returns false (and does nothing) when it is empty or busy (SPEC §5). */
  submitManualCode(text: string): boolean;
  /**
   * Shows a verdict reached elsewhere on this screen (issue 11: a supervisor's manual check-in of
   * ticket `code` from 'Find attendee') as a scan's: result card, toast, flash, recent scans and,
   * for an approval, refreshed counts. `scanId`: the id its check-in keeps (the row's id, which an
   * undo from recent scans names).
   */
  showVerdict(code: string, response: VerifyTicketResponse, scanId?: string): void;
  /** A supervisor undid ticket `code`'s check-in (issue 11): the result card, if it shows it, says so. */
  showUndone(code: string, undone: UndoneCheckIn): void;
  /** Continuous scanning (issue 10 item 1), remembered on this device; off = SPEC §4. */
  isContinuous: boolean;
  setContinuous(on: boolean): void;
  camera: CameraControls;
}

/**
 * How codes are checked (docs/decisions/113): `direction` 'exit' records exits (verify and the
 * device's rule alike); `onInfoCode`, when given (info mode, supervisors), takes every code instead
 * of a check-in: nothing is verified, nothing admitted.
 */
export interface ScanOptions {
  direction?: 'exit' | undefined;
  onInfoCode?: ((code: string) => Promise<void>) | undefined;
}

/** A monotonic clock in ms, for the repeat and resume rules of scan-gate.ts. */
const now = () => performance.now();

/**
 * @param eventId the selected event's id; null or '' makes every check fail with 'No selected
 *   event found.' (SPEC §5), shown as the verification error toast.
 * @param day the selected event day; its number is sent as `day`, its check-in list (if one was
 *   chosen, docs/decisions/109) as `checkInListId`.
 *
 * Codes come from scan sources (SEAMS §1) and all take one path: 'QR Code Detected!' toast, 500 ms
 * pause, verify (SPEC §4, §9). The camera (`chooseCameraSource`, or a test's source) in SPEC mode stops at its first
 * code; in continuous mode it keeps running and its codes pass scan-gate.ts (repeats within 3 s
 * ignored, 1.5 s rest after each verdict). A keyboard-wedge scanner is listened to while the screen
 * is open, with the same repeat rule. The manual field is SPEC §5 and passes no gate.
 *
 * @param offline issue 12 (docs/decisions/052): when given, a verify with no answer within
 *   `VERIFY_TIMEOUT_MS` (or any scan while the scanner is in offline mode, or the browser offline) is
 *   decided on the device from the door list, shown marked 'Offline' and queued under its scanId. When
 *   the device cannot decide (no door list), SPEC §8's 'Verification Error' stays.
 */
export function useScanner(eventId: string | null, day: SelectedDay, offline?: OfflineDoor, options: ScanOptions = {}): Scanner {
  const scope = useScannerScope(eventId, day);
  // The Exit switch (docs/decisions/113): the caller passes 'exit' only at a list that allows re-entry.
  const { direction, onInfoCode } = options;
  const [state, dispatch] = useReducer(scannerReducer, scope, restoreScannerState);
  const { isScanning, latestResult } = state;
  // Kept as soon as it is on screen: a layout effect runs with the commit, so the tab memory never
  // lags the screen (docs/decisions/063, kept by 081).
  useLayoutEffect(() => keepScannerState(scope, { isScanning, latestResult }), [scope, isScanning, latestResult]);
  // Back after a sign-in that a ticket check's 401 forced: that ticket was never checked; say so.
  useEffect(() => {
    const code = takeUncheckedCode(scope);
    // 'next-screen': raised as this screen mounts, before the router's root dismisses the last screen's toasts.
    if (code !== null) {
      notify({ title: t('scanner.uncheckedTitle'), description: t('scanner.uncheckedSessionEnded', { code: toastCodeText(code) }), variant: 'error', scope: 'next-screen', isKeptOnLanguageChange: true });
    }
  }, [scope]);
  const { mutateAsync: verify } = useVerifyTicketMutation();
  const { settings, update: updateSettings } = useDeviceSettings();
  const isContinuous = settings.continuousScanning;
  const isContinuousRef = useRef(isContinuous);
  useEffect(() => {
    isContinuousRef.current = isContinuous;
  }, [isContinuous]);

  // One camera source per screen: it creates the decoder on its first start and reuses it.
  const createDecoder = useQrDecoderFactory();
  const createCameraSource = useCameraSourceFactory();
  const [cameraSource] = useState(() => createCameraSource(createDecoder));
  const [wedgeSource] = useState(() => createKeyboardWedgeSource());
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [facing, setFacing] = useState<Facing>(CAMERA_FACING_MODE);
  const [hasTorch, setHasTorch] = useState(false);
  const [isTorchOn, setIsTorchOn] = useState(false);
  const [cameraCount, setCameraCount] = useState(0);

  // Set synchronously, so a second Enter or decode before the next render cannot start a second check.
  const isBusyRef = useRef(false);
  const gateRef = useRef(emptyScanGate);
  /** Continuous mode: no camera code is taken before this time (1.5 s after the last verdict). */
  const resumeAtRef = useRef(Number.NEGATIVE_INFINITY);
  const pauseTimerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pauseTimerRef.current !== null) clearTimeout(pauseTimerRef.current);
    },
    [],
  );

  const queryClient = useQueryClient();
  /** Shows a verdict the device decided (issue 12): card, toast, flash and recent scans, marked 'Offline'. */
  const showOfflineVerdict = useCallback(
    (result: ScanResult) => {
      recordVerdict(queryClient, scope, result);
      dispatch({ type: 'verified', result });
      notify(verdictNotice(result));
    },
    [queryClient, scope],
  );

  /**
   * Decides `qrCode` on the device (issue 12); false when it cannot (no door list, not a genuine
   * signed ticket, no storage).
   */
  const decideHere = useCallback(
    async (qrCode: string, scanId: string, scannedAt: Date) => {
      if (!offline || !eventId) return false;
      const verdict = await offline.decide({ scanId, code: qrCode, scannedAt, direction }).catch(() => null);
      if (verdict === null) return false;
      showOfflineVerdict({ id: scanId, ticketId: qrCode, timestamp: scannedAt.toISOString(), isOffline: true, ...verdict });
      return true;
    },
    [offline, eventId, showOfflineVerdict, direction],
  );

  const checkTicket = useCallback(
    async (qrCode: string) => {
      isBusyRef.current = true;
      const scanId = crypto.randomUUID();
      const scannedAt = new Date();
      if (onInfoCode) {
        // Info mode: the ticket's state, nothing admitted (the caller shows it and says when it failed).
        try {
          await onInfoCode(qrCode);
        } finally {
          dispatch({ type: 'infoShown' });
          isBusyRef.current = false;
          resumeAtRef.current = resumeAt(now());
        }
        return;
      }
      try {
        if (offline?.decidesLocally() && (await decideHere(qrCode, scanId, scannedAt))) return;
        // A ticket this device admitted offline, in a scan still waiting to be sent: the server does
        // not know it yet and would approve it again; the device decides (DENIED, already checked in).
        if (offline && (await offline.hasUnsentAdmission(qrCode)) && (await decideHere(qrCode, scanId, scannedAt))) return;
        const verdict = await verifyWithin(verify, { ...scope, qrCode, scanId, direction }, offline ? VERIFY_TIMEOUT_MS : null);
        offline?.verifyAnswered(qrCode, verdict);
        // The row keeps the scan's id, which its check-in keeps too: an undo from recent scans names it.
        dispatch({ type: 'verified', result: { id: scanId, ticketId: qrCode, timestamp: new Date().toISOString(), ...verdict } });
        notify(verdictNotice(verdict));
      } catch (error) {
        // Issue 12: no answer (in 3 s), or the server cannot decide now (503, decision 103) — the
        // device decides, under the same scanId (a verify that did reach the server makes the upload
        // answer 'duplicate', decision 043).
        if (offline && (error === VERIFY_TIMED_OUT || isNetworkFailure(error) || isServerUnavailable(error))) {
          offline.verifyFailed();
          if (await decideHere(qrCode, scanId, scannedAt)) return;
        }
        // A removed door device (docs/decisions/108): sign-in says so at once; 'Verification Error.
        // Please try again' over it would ask for a retry that cannot work.
        if (error instanceof ApiError && error.code === 'device_revoked') return;
        // The session ended (401): the next screen is sign-in; the scanner says after it that this
        // ticket was never checked.
        if (error instanceof ApiError && error.status === 401) rememberUncheckedCode(scope, qrCode);
        // SPEC §8: the server's error text is not shown; the same words for every failure.
        dispatch({ type: 'verificationFailed' });
        notify({ id: SCAN_OUTCOME_TOAST_ID, title: t('scanner.verificationError'), description: t('scanner.verificationErrorDescription'), variant: 'error' });
      } finally {
        isBusyRef.current = false;
        resumeAtRef.current = resumeAt(now());
      }
    },
    [verify, scope, direction, onInfoCode, offline, decideHere],
  );

  /** The one path of every scanned code (SPEC §4): shown, toasted, verified after a 500 ms pause. */
  const takeCode = useCallback(
    (code: string, keepsCamera: boolean) => {
      isBusyRef.current = true;
      dispatch({ type: 'codeDetected', code, keepsCamera });
      notify({ title: t('scanner.qrDetected'), description: toastCodeText(code), variant: 'info' });
      // SPEC §4, §9: a 500 ms pause between the decode and the verify call.
      pauseTimerRef.current = setTimeout(() => {
        pauseTimerRef.current = null;
        void checkTicket(code);
      }, DECODE_PAUSE_MS);
    },
    [checkTicket],
  );

  const [isCameraDenied, setCameraDenied] = useState(false);

  const onCameraCode = useCallback(
    (code: string) => {
      if (!isContinuousRef.current) {
        // SPEC §4: the first decode stops the camera; while another check runs the code is dropped.
        if (isBusyRef.current) return;
        void cameraSource.stop();
        setHasTorch(false);
        setIsTorchOn(false);
        takeCode(code, false);
        return;
      }
      const at = now();
      const canTake = !isBusyRef.current && at >= resumeAtRef.current;
      const passed = passCode(gateRef.current, code, at, canTake);
      gateRef.current = passed.gate;
      if (passed.isTaken) takeCode(code, true);
    },
    [cameraSource, takeCode],
  );

  const onWedgeCode = useCallback(
    (code: string) => {
      const passed = passCode(gateRef.current, code, now(), !isBusyRef.current);
      gateRef.current = passed.gate;
      if (passed.isTaken) takeCode(code, true);
    },
    [takeCode],
  );

  // The sources call the latest handlers through refs: they are started once, not per render.
  const onCameraCodeRef = useRef(onCameraCode);
  const onWedgeCodeRef = useRef(onWedgeCode);
  useEffect(() => {
    onCameraCodeRef.current = onCameraCode;
    onWedgeCodeRef.current = onWedgeCode;
  }, [onCameraCode, onWedgeCode]);

  // Issue 10 item 7: a hardware scanner's burst is verified while this screen is open.
  useEffect(() => {
    void wedgeSource.start({ onCode: (code) => onWedgeCodeRef.current(code) });
    return () => void wedgeSource.stop();
  }, [wedgeSource]);

  const stopSource = useCallback(() => {
    void cameraSource.stop();
    setHasTorch(false);
    setIsTorchOn(false);
  }, [cameraSource]);

  /** SPEC §8's camera failure: the message under the preview (state 'failed') and the 'Camera Error' toast. */
  const showCameraFailure = useCallback(() => {
    dispatch({ type: 'cameraFailed' });
    notify({ title: t('scanner.cameraError'), variant: 'error' });
  }, []);

  // The running camera failed (native `scanError`): the source has released it; say so (SPEC §8).
  const onCameraError = useCallback(() => {
    setHasTorch(false);
    setIsTorchOn(false);
    setCameraDenied(false);
    showCameraFailure();
  }, [showCameraFailure]);
  const onCameraErrorRef = useRef(onCameraError);
  useEffect(() => {
    onCameraErrorRef.current = onCameraError;
  }, [onCameraError]);

  const openCamera = useCallback(
    async (towards: Facing) => {
      dispatch({ type: 'cameraStarting' });
      const outcome = await cameraSource.start({
        onCode: (code) => onCameraCodeRef.current(code),
        onError: () => onCameraErrorRef.current(),
        video: videoRef.current,
        facing: towards,
      });
      setCameraDenied(outcome === 'denied');
      if (outcome === 'active') {
        dispatch({ type: 'cameraStarted' });
        setHasTorch(cameraSource.hasTorch());
        setIsTorchOn(false);
        // Browsers list every camera only once one has been allowed.
        void countDeviceCameras().then(setCameraCount);
      } else if (outcome === 'failed' || outcome === 'denied') {
        showCameraFailure();
      }
    },
    [cameraSource, showCameraFailure],
  );

  const startCamera = useCallback(() => openCamera(facing), [openCamera, facing]);

  const stopCamera = useCallback(() => {
    stopSource();
    dispatch({ type: 'cameraStopped' });
  }, [stopSource]);

  // Release the camera when the screen goes away (SPEC: never leave the camera on).
  useEffect(() => () => void cameraSource.stop(), [cameraSource]);

  // The native app in the background (decision 091): the camera is released, and taken again on
  // return when it was running (or starting) and the panel is still open.
  const cameraStateRef = useRef({ camera: state.camera, isScanning, facing });
  useEffect(() => {
    cameraStateRef.current = { camera: state.camera, isScanning, facing };
  }, [state.camera, isScanning, facing]);
  const resumesCameraRef = useRef(false);
  useAppStateChange((isActive) => {
    const current = cameraStateRef.current;
    if (!isActive) {
      if (current.camera !== 'active' && current.camera !== 'starting') return;
      resumesCameraRef.current = true;
      stopSource();
      dispatch({ type: 'cameraStopped' });
      return;
    }
    if (!resumesCameraRef.current) return;
    resumesCameraRef.current = false;
    if (current.isScanning && current.camera === 'inactive') void openCamera(current.facing);
  });

  const startScanning = useCallback(() => dispatch({ type: 'scanStarted' }), []);

  const stopScanning = useCallback(() => {
    stopSource();
    dispatch({ type: 'scanStopped' });
  }, [stopSource]);

  const toggleTorch = useCallback(() => {
    const next = !isTorchOn;
    cameraSource.setTorch(next).then(
      () => setIsTorchOn(next),
      () => setHasTorch(cameraSource.hasTorch()),
    );
  }, [cameraSource, isTorchOn]);

  const switchCamera = useCallback(() => {
    const next: Facing = facing === 'environment' ? 'user' : 'environment';
    setFacing(next);
    if (state.camera === 'active') void openCamera(next);
  }, [facing, openCamera, state.camera]);

  const setContinuous = useCallback((on: boolean) => updateSettings({ continuousScanning: on }), [updateSettings]);

  const submitManualCode = useCallback(
    (text: string) => {
      const code = manualTicketCode(text);
      if (code === null || isBusyRef.current) return false;
      dispatch({ type: 'manualCodeSubmitted' });
      void checkTicket(code);
      return true;
    },
    [checkTicket],
  );

  const showVerdict = useCallback(
    (code: string, response: VerifyTicketResponse, scanId: string = crypto.randomUUID()) => {
      const verdict = toVerdict(response);
      // The server decided it: the device keeps the guest's state as after any online verdict.
      offline?.verifyAnswered(code, verdict);
      const result: ScanResult = { id: scanId, ticketId: code, timestamp: new Date().toISOString(), ...verdict };
      recordVerdict(queryClient, scope, result);
      dispatch({ type: 'verified', result });
      notify(verdictNotice(result));
    },
    [queryClient, scope, offline],
  );

  const showUndone = useCallback((code: string, undone: UndoneCheckIn) => dispatch({ type: 'checkInUndone', code, undone }), []);

  return {
    state,
    showVerdict,
    showUndone,
    videoRef,
    preview: cameraSource.preview,
    isCameraDenied,
    startScanning,
    stopScanning,
    startCamera,
    stopCamera,
    submitManualCode,
    isContinuous,
    setContinuous,
    camera: { hasTorch, isTorchOn, toggleTorch, canSwitch: cameraCount > 1, switchCamera },
  };
}

/** What `verifyWithin` rejects with when the verify did not answer in time. */
const VERIFY_TIMED_OUT = Symbol('verify timed out');

/**
 * Runs `verify(check)`; with a `timeoutMs`, gives up after that many ms: the request is aborted and
 * the promise rejects with `VERIFY_TIMED_OUT` (issue 12 item 3). The request is never sent again
 * (decision 016: a verify is never replayed).
 */
async function verifyWithin<T>(verify: (check: TicketCheck) => Promise<T>, check: TicketCheck, timeoutMs: number | null): Promise<T> {
  if (timeoutMs === null) return verify(check);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(VERIFY_TIMED_OUT);
    }, timeoutMs);
  });
  const request = verify({ ...check, signal: controller.signal });
  // The losing request's own failure is of no interest once the timer has won.
  request.catch(() => undefined);
  try {
    return await Promise.race([request, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
