/**
 * Which decoded codes become scans (issue 10 items 1, 4 and 7; our addition to SPEC §4), as plain
 * functions over times in ms (any monotonic clock, e.g. `performance.now()`). No React, no I/O.
 *
 * - Repeats: a code seen again within 3 s of its last sighting is ignored, not re-sent. The window
 *   slides with every sighting, so a ticket held in front of a running camera (reported on every
 *   frame) is verified once however long it is held; taken away for 3 s and shown again, it is
 *   verified again (and denied as already checked in).
 * - Resume: in continuous mode the camera takes no new code until 1.5 s after the verdict, so staff
 *   see the verdict before the next ticket is read; then it goes on by itself, with no tap.
 * - A code turned away because the scanner was busy or resting is not remembered: the next ticket,
 *   already held up while the previous verdict showed, is taken as soon as the scanner is ready.
 *
 * SPEC mode (continuous off) does not use the gate for the camera: its first code stops the camera
 * (SPEC §4), and 'Start Camera' on the same ticket verifies it again, as SPEC says.
 */
import { CONTINUOUS_RESUME_DELAY_MS, REPEAT_CODE_WINDOW_MS } from '@/config/constants.ts';

/** What the gate remembers: when each recently taken code was last seen, in ms. */
export interface ScanGate {
  lastSeenAt: ReadonlyMap<string, number>;
}

/** A gate that has seen nothing. */
export const emptyScanGate: ScanGate = { lastSeenAt: new Map() };

/**
 * Decides whether `code`, seen at `nowMs`, becomes a scan.
 * @param canTake false while a check is running or the camera is resting after a verdict.
 * @returns `isTaken` and the gate to keep (codes not seen for 3 s are forgotten).
 */
export function passCode(gate: ScanGate, code: string, nowMs: number, canTake: boolean): { isTaken: boolean; gate: ScanGate } {
  const lastSeenAt = new Map([...gate.lastSeenAt].filter(([, seenAt]) => nowMs - seenAt < REPEAT_CODE_WINDOW_MS));
  if (lastSeenAt.has(code)) {
    // A repeat: ignored, and it keeps its window open.
    lastSeenAt.set(code, nowMs);
    return { isTaken: false, gate: { lastSeenAt } };
  }
  if (!canTake) return { isTaken: false, gate: { lastSeenAt } };
  lastSeenAt.set(code, nowMs);
  return { isTaken: true, gate: { lastSeenAt } };
}

/** When the continuous camera takes codes again after a verdict shown at `verdictAtMs` (1.5 s later). */
export function resumeAt(verdictAtMs: number): number {
  return verdictAtMs + CONTINUOUS_RESUME_DELAY_MS;
}
