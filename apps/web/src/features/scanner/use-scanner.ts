/**
 * The scanner screen's behaviour (SPEC §4 states, §5 manual entry, §8 toasts): the state machine of
 * scanner-logic.ts driven by the camera, the manual field and the verify mutation. The open panel and
 * the latest verdict survive a reload of the tab (scanner-memory.ts, decision 027).
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { DECODE_PAUSE_MS } from '@/config/constants.ts';
import type { EventDay } from '@/lib/entities.ts';
import { vibrateForVerdict } from '@/lib/native/haptics.ts';
import { notify } from '@/lib/toast.ts';
import { useVerifyTicketMutation } from './api.ts';
import {
  manualTicketCode,
  scannerReducer,
  toastCodeText,
  verdictNotice,
  type ScannerState,
} from './scanner-logic.ts';
import { keepScannerState, restoreScannerState } from './scanner-memory.ts';
import { useCameraScanner, type CameraScanner } from './use-camera-scanner.ts';

export interface Scanner {
  state: ScannerState;
  videoRef: CameraScanner['videoRef'];
  /** Where the camera preview shows (native: behind the WebView). */
  cameraPreview: CameraScanner['preview'];
  /** True after the last camera start was refused camera permission (native: offer the settings). */
  isCameraDenied: boolean;
  startScanning(): void;
  stopScanning(): void;
  startCamera(): Promise<void>;
  stopCamera(): void;
  /** Verifies a typed ticket code; returns false (and does nothing) when it is empty or busy (SPEC §5). */
  submitManualCode(text: string): boolean;
}

/**
 * @param eventId the selected event's id; null or '' makes every check fail with 'No selected
 *   event found.' (SPEC §5), shown as the verification error toast.
 * @param day the selected event day; its number is sent as `day`.
 */
export function useScanner(eventId: string | null, day: EventDay): Scanner {
  const [state, dispatch] = useReducer(scannerReducer, { eventId, day: day.day }, restoreScannerState);
  const { isScanning, latestResult } = state;
  useEffect(() => keepScannerState({ eventId, day: day.day }, { isScanning, latestResult }), [eventId, day.day, isScanning, latestResult]);
  const { mutateAsync: verify } = useVerifyTicketMutation();
  // Set synchronously, so a second Enter or decode before the next render cannot start a second check.
  const isBusyRef = useRef(false);
  const pauseTimerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pauseTimerRef.current !== null) clearTimeout(pauseTimerRef.current);
    },
    [],
  );

  const checkTicket = useCallback(
    async (qrCode: string) => {
      isBusyRef.current = true;
      try {
        const verdict = await verify({ eventId, day: day.day, qrCode, scanId: crypto.randomUUID() });
        dispatch({ type: 'verified', result: { id: crypto.randomUUID(), ticketId: qrCode, timestamp: new Date().toISOString(), ...verdict } });
        notify(verdictNotice(verdict));
        // Felt as well as seen (issue 9 item 4): the device's success or error haptic on native.
        void vibrateForVerdict(verdict.isValid);
      } catch {
        // SPEC §8: the server's error text is not shown; the same words for every failure.
        dispatch({ type: 'verificationFailed' });
        notify({ title: 'Verification Error', description: 'Could not verify ticket. Please try again.', variant: 'error' });
      } finally {
        isBusyRef.current = false;
      }
    },
    [verify, eventId, day.day],
  );

  const onCode = useCallback(
    (code: string) => {
      // The camera stopped itself on this decode; while another check runs the code is dropped.
      if (isBusyRef.current) return;
      isBusyRef.current = true;
      dispatch({ type: 'codeDetected', code });
      notify({ title: 'QR Code Detected!', description: toastCodeText(code), variant: 'info' });
      // SPEC §4, §9: a 500 ms pause between the decode and the verify call.
      pauseTimerRef.current = setTimeout(() => {
        pauseTimerRef.current = null;
        void checkTicket(code);
      }, DECODE_PAUSE_MS);
    },
    [checkTicket],
  );

  const camera = useCameraScanner(onCode);
  const { start, stop } = camera;
  const [isCameraDenied, setCameraDenied] = useState(false);

  const startCamera = useCallback(async () => {
    dispatch({ type: 'cameraStarting' });
    const outcome = await start();
    setCameraDenied(outcome === 'denied');
    if (outcome === 'active') dispatch({ type: 'cameraStarted' });
    else if (outcome === 'failed' || outcome === 'denied') {
      dispatch({ type: 'cameraFailed' });
      notify({ title: 'Camera Error', variant: 'error' });
    }
  }, [start]);

  const stopCamera = useCallback(() => {
    stop();
    dispatch({ type: 'cameraStopped' });
  }, [stop]);

  const startScanning = useCallback(() => dispatch({ type: 'scanStarted' }), []);

  const stopScanning = useCallback(() => {
    stop();
    dispatch({ type: 'scanStopped' });
  }, [stop]);

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

  return { state, videoRef: camera.videoRef, cameraPreview: camera.preview, isCameraDenied, startScanning, stopScanning, startCamera, stopCamera, submitManualCode };
}
