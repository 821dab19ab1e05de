/**
 * Seeing, hearing and feeling each verdict (issue 10 items 2 and 3): for every new result of the
 * scanner, the full-screen flash for `verdictFlashMs` (longer with a check-in note), the verdict's tone (when 'Sound' is on)
 * and its vibration (when 'Vibration' is on) — an approval that needs attention has its own of both
 * (`verdictCue`, docs/decisions/102).
 *
 * It follows the scanner state's latest result, not a particular scan source, so the camera, the
 * manual field and any later source all get the same feedback. A verdict restored after a reload
 * (decision 027) is shown on the card but not replayed.
 */
import { useCallback, useEffect, useState } from 'react';
import { readDeviceSettings } from '@/lib/device-settings.ts';
import { vibrateForVerdict } from '@/lib/native/haptics.ts';
import { verdictSound } from '@/lib/verdict-sound.ts';
import { type ScanResult, verdictCue } from './scanner-logic.ts';
import { verdictFlashMs } from './verdict-flash-logic.ts';

export interface VerdictFeedback {
  /** The result the flash shows now, or null. */
  flash: ScanResult | null;
  /** Ends the flash early (a tap on it, Escape). */
  dismissFlash(): void;
}

/** @param latestResult the scanner's latest result (SPEC §3), null when none is on display. */
export function useVerdictFeedback(latestResult: ScanResult | null): VerdictFeedback {
  // The result on display when the screen opened (restored from the tab's memory): not replayed.
  const [restoredId] = useState(latestResult?.id ?? null);
  const [endedId, setEndedId] = useState<string | null>(null);
  const newResult = latestResult !== null && latestResult.id !== restoredId ? latestResult : null;
  const flash = newResult !== null && newResult.id !== endedId ? newResult : null;

  // The AudioContext may only start inside a user gesture (autoplay policy).
  useEffect(() => verdictSound.listenForFirstGesture(), []);

  const newResultId = newResult?.id;
  const cue = newResult === null ? undefined : verdictCue(newResult);
  useEffect(() => {
    if (newResultId === undefined || cue === undefined) return;
    verdictSound.play(cue);
    if (readDeviceSettings().isVibrationOn) void vibrateForVerdict(cue);
  }, [newResultId, cue]);

  const flashId = flash?.id;
  const flashMs = flash === null ? undefined : verdictFlashMs(flash);
  useEffect(() => {
    if (flashId === undefined) return;
    const timer = setTimeout(() => setEndedId(flashId), flashMs);
    return () => clearTimeout(timer);
  }, [flashId, flashMs]);

  const dismissFlash = useCallback(() => {
    if (flashId !== undefined) setEndedId(flashId);
  }, [flashId]);

  return { flash, dismissFlash };
}
