/**
 * Business constants and limits of SPEC §9 (and the few texts of SPEC §2/§3 that act as constants).
 * Every value carries its SPEC reference; change the spec first, then the value here.
 */

/** The product's scanner name, shown as the login title (SPEC §2 /login). */
export const SCANNER_NAME = 'Gatecheck Scanner';

/** Camera decode attempts per second (SPEC §9 "Camera scan rate 2 per second"). */
export const CAMERA_SCANS_PER_SECOND = 2;
/** The rear camera is preferred (SPEC §9 "preferring the rear camera"). */
export const PREFER_REAR_CAMERA = true;
/** getUserMedia facingMode for the preferred camera; never `{ exact }` (SPEC §9). */
export const CAMERA_FACING_MODE = 'environment';
/** Pause between a decode and the verify call, in ms (SPEC §4, §9 "Processing pause after a decode: 500 ms"). */
export const DECODE_PAUSE_MS = 500;

/**
 * Continuous scanning (issue 10 item 1, our addition; SPEC §4's stop-after-decode stays the default):
 * after a verdict the camera scanner takes new codes again after this many ms, with no tap.
 */
export const CONTINUOUS_RESUME_DELAY_MS = 1_500;
/**
 * A code seen again within this many ms of its last sighting is ignored, not re-sent (issue 10 items
 * 1 and 7: continuous camera scanning and hardware scanners). The window slides: a ticket held in view
 * keeps being "seen", so it is verified once however long it is held.
 */
export const REPEAT_CODE_WINDOW_MS = 3_000;
/**
 * Keyboard-wedge barcode scanners (issue 10 item 7) type a code as a burst: at most this many ms
 * between two keys (a person typing takes 100 ms or more)…
 */
export const WEDGE_MAX_KEY_GAP_MS = 50;
/** …of at least this many characters, ending in Enter. */
export const WEDGE_MIN_CODE_CHARS = 4;

/** Swipe-back must start within this many px of the left screen edge (SPEC §9). */
export const SWIPE_EDGE_PX = 50;
/** Swipe-back must move more than this many px to the right (SPEC §9). */
export const SWIPE_MIN_DX_PX = 100;
/** Swipe-back must drift vertically less than this many px (SPEC §9). */
export const SWIPE_MAX_DY_PX = 100;

/** Scanned text in the 'QR Code Detected!' toast is cut to this many characters (SPEC §4, §9). */
export const TOAST_CODE_MAX_CHARS = 30;
/** Ticket text on the result card / last-scanned banner is cut to this many characters (SPEC §8, §9). */
export const RESULT_CODE_MAX_CHARS = 20;

/** Scanning library default: at most 25 scans per second (SPEC §9). */
export const SCAN_LIBRARY_MAX_SCANS_PER_SECOND = 25;
/** Scanning library default: decode timeout, in ms (SPEC §9 "10 s decode timeout"). */
export const SCAN_LIBRARY_DECODE_TIMEOUT_MS = 10_000;
/** Scanning library default: canvas size, in px (SPEC §9 "400 px canvas"). */
export const SCAN_CANVAS_SIZE_PX = 400;

/** Cached server data is discarded after this many ms unused (SPEC §9 "Data cache is discarded after 5 minutes"). */
export const QUERY_GC_TIME_MS = 300_000;
/** Failed queries are retried this many times (SPEC §9 "3 retries"). */
export const QUERY_RETRIES = 3;
/** First retry delay, in ms; doubles per attempt (SPEC §9 "exponential backoff"). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Retry delays never exceed this, in ms (SPEC §9 "capped at 30 s"). */
export const RETRY_DELAY_CAP_MS = 30_000;

/** Tooltip open delay, in ms (SPEC §9 "Tooltip open delay 700 ms"). */
export const TOOLTIP_DELAY_MS = 700;

/** Time allowed for the third-party IP-to-country lookup before sign-up, in ms (SPEC §7 "short" lookup). */
export const IP_LOOKUP_TIMEOUT_MS = 3_000;

/** Time allowed for a server to answer the native login screen's address check, in ms (issue 9 item 5: never a hang). */
export const SERVER_CHECK_TIMEOUT_MS = 8_000;

/**
 * Time allowed for the session check at start (GET /users/me), in ms: without an answer by then the
 * stored user starts the app, unconfirmed (issue 12 item 1: a door without network must not wait).
 */
export const SESSION_CHECK_TIMEOUT_MS = 5_000;

/**
 * Time allowed at a logout to send the user's scans still queued offline, in ms (not in SPEC;
 * docs/decisions/076): long enough for a slow door network, short enough that a tap on 'Logout'
 * with no network is answered while the staff member is still looking at it.
 */
export const LOGOUT_SEND_TIMEOUT_MS = 5_000;

/** While the server is unreachable, it is asked again (GET /api/health) this often, in ms (issue 12 item 1). */
export const OFFLINE_PROBE_INTERVAL_MS = 5_000;

/**
 * How long a screen's code may take to load before the guard's 'Loading...' (SPEC §2) takes the
 * place of the blank wait, in ms (not in SPEC): a screen already loaded or cached arrives well
 * within it, so it never flickers; on a slow network at the door staff see that the app is working.
 */
export const SCREEN_LOADING_DELAY_MS = 250;
