/**
 * Scan sources (SEAMS §1): everything that turns a ticket in front of the device into its text —
 * the browser camera (zxing-wasm over getUserMedia), the native camera (ML Kit, lib/native) and a
 * keyboard-wedge barcode scanner — sits behind this one interface, so the scanner screen has one
 * `onCode` → verify path and its tests drive a source, not the browser.
 *
 * A source reports every text it reads, as often as it reads it (a camera reports the same code on
 * every frame it stays in view): deciding what counts as one scan (SPEC §4: the camera stops after a
 * decode; continuous mode: the same code within 3 s is ignored) is the caller's job, not the source's.
 */

/** How `start` ended: 'denied' when the user (or the OS) refused camera permission. */
export type ScanSourceStart = 'active' | 'failed' | 'denied' | 'cancelled';

/** Where a camera source shows what it sees. */
export type ScanPreview =
  /** The source draws into the `<video>` element the screen passes to `start` (the web camera). */
  | 'video-element'
  /** The camera renders behind the WebView: the screen must make its ancestors transparent (native). */
  | 'behind-webview'
  /** Nothing to show (a keyboard wedge). */
  | 'none';

/** Options for `start`. */
export interface ScanSourceStartOptions {
  /** Called with each text read, in order; never called after `stop()` has returned. */
  onCode(code: string): void;
  /**
   * Called once when the running source fails after 'active' (the native camera's `scanError`:
   * the camera was taken or lost); the source has released the camera by then and reads no more.
   * Never called after `stop()` has returned.
   */
  onError?(): void;
  /** The preview element, for sources whose `preview` is 'video-element'; ignored by the others. */
  video?: HTMLVideoElement | null;
  /** Which camera: 'environment' (rear, SPEC §9 default) or 'user'. Ignored by non-camera sources. */
  facing?: 'environment' | 'user';
}

/** One way of reading ticket codes (SEAMS §1). */
export interface ScanSource {
  /** Which source this is, for logs and tests. */
  readonly kind: 'web-camera' | 'native-camera' | 'keyboard-wedge';
  readonly preview: ScanPreview;
  /**
   * Starts reading. Resolves once codes can arrive ('active'), or with why not. A second `start`
   * while active restarts the source. Never rejects.
   */
  start(options: ScanSourceStartOptions): Promise<ScanSourceStart>;
  /** Stops reading and releases the camera or listener. Safe to call at any time, also twice. */
  stop(): Promise<void>;
  /** Whether the running camera has a torch; false before 'active' and for non-camera sources. */
  hasTorch(): boolean;
  /** Turns the torch on or off; rejects when `hasTorch()` is false. */
  setTorch(on: boolean): Promise<void>;
}
