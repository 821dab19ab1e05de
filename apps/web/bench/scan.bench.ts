/**
 * `npm run bench:scan` (issue 10): how long a door steward waits from a ticket appearing in front of
 * the camera to its verdict on screen, in continuous mode, in Chromium with the fake camera and the
 * real server — the built app (run `npm run build -w @gatecheck/web` first), a fresh data dir, the
 * embedded database.
 *
 * Each round rewrites the fake camera's Y4M in place with the next demo ticket for today (the moment
 * the ticket "appears") and records when its result card shows (a MutationObserver in the page; both
 * times from the same machine clock, ms). Rounds start at a random moment of the 500 ms decode cycle,
 * after the 1.5 s rest that follows each verdict, so they sample the wait for the next decode evenly.
 *
 * The floor SPEC's constants set, which the issue names as 0.76 s:
 *   median wait for the next decode  = (1000 ms / 2 scans per s) / 2   = 250 ms  (SPEC §9, uniform phase)
 * + pause between decode and verify  = 500 ms                                     (SPEC §4, §9)
 * + decode (~1 ms) and verify (~8 ms on PGlite, TESTING-NOTES)            ≈  10 ms
 * = 760 ms.
 * The same floor with the verify round trip measured in this run (from the page, median of 10 calls)
 * is printed beside it; the ratios say how close the scanner gets. Not part of `npm test`.
 *
 * Options (environment): SCAN_BENCH_ROUNDS (default 10, plus 1 warm-up round not counted).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from '@playwright/test';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { CAMERA_SCANS_PER_SECOND, CONTINUOUS_RESUME_DELAY_MS, DECODE_PAUSE_MS } from '../src/config/constants.ts';
import { chromiumArgs, findChromium } from '../e2e/support/chromium.ts';
import { todaysDayNumber } from '../e2e/support/demo-scope.ts';
import { admitsDay, readDemoTickets } from '../e2e/support/demo-tickets.ts';
import { createFakeCamera } from '../e2e/support/fake-camera.ts';
import { openScannerForDay } from '../e2e/support/main-job.ts';
import { startGatecheckServer } from '../e2e/support/server.ts';

const ROUNDS = Number(process.env.SCAN_BENCH_ROUNDS ?? 10);
const WARM_UP_ROUNDS = 1;
/** Longest wait for one verdict, in ms. */
const VERDICT_TIMEOUT_MS = 15_000;
const DECODE_INTERVAL_MS = 1000 / CAMERA_SCANS_PER_SECOND;
/** Decode (~1 ms) plus verify (~8 ms) as measured on our machines (TESTING-NOTES), rounded: ms. */
const WORK_MS = 10;
/** The floor the issue names: median decode wait + SPEC pause + work, in ms (= 760). */
const ISSUE_FLOOR_MS = DECODE_INTERVAL_MS / 2 + DECODE_PAUSE_MS + WORK_MS;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Records in the page when a result card naming `window.__expecting` (a code's first 20 characters)
 * first shows: `window.__verdictAt[prefix]` (Date.now ms). A string, not a function: tsx would add
 * helpers to a function's source that do not exist in the page.
 */
const WATCH_VERDICTS_SCRIPT = `
  window.__verdictAt = {};
  window.__expecting = null;
  new MutationObserver(function () {
    var expecting = window.__expecting;
    if (expecting === null || window.__verdictAt[expecting] !== undefined) return;
    // The result card: a group named after the verdict (SPEC §8), holding the ticket's code.
    var cards = document.querySelectorAll('main [role="group"][aria-labelledby^="verdict-"]');
    for (var index = 0; index < cards.length; index++) {
      var text = cards[index].textContent || '';
      if (/(Valid|Invalid) Ticket/.test(text) && text.indexOf(expecting) !== -1) window.__verdictAt[expecting] = Date.now();
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
`;

/** Median round trip of the verify endpoint from the page, in ms (unknown codes: denied, nothing checked in). */
async function measureVerifyRoundTrip(page: Page, eventId: string, day: number): Promise<number> {
  const times = await page.evaluate(
    async ({ url, eventId, day }) => {
      const result: number[] = [];
      for (let index = 0; index < 11; index++) {
        const startedAt = performance.now();
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ eventId, day, qrCode: `BENCH-UNKNOWN-${index}`, scanId: crypto.randomUUID() }) });
        result.push(performance.now() - startedAt);
      }
      return result.slice(1);
    },
    { url: `${API_PREFIX}${apiPaths.verifyTicket}`, eventId, day },
  );
  return median(times);
}

const server = await startGatecheckServer('bench-scan');
const cameraDir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-scan-'));
const camera = createFakeCamera(join(cameraDir, 'camera.y4m'));
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs(camera.path) });
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 }, permissions: ['camera'], locale: 'en-US' });
  const page = await context.newPage();
  const { event } = await openScannerForDay(page, 'today');
  const today = todaysDayNumber(event);
  const tickets = readDemoTickets(server.dataDir).filter((ticket) => ticket.eventTitle === event.title && admitsDay(ticket, today));
  if (tickets.length < ROUNDS + WARM_UP_ROUNDS) throw new Error(`Only ${tickets.length} demo tickets for today; need ${ROUNDS + WARM_UP_ROUNDS}.`);

  await page.getByRole('button', { name: 'Start Scanning' }).click();
  const toggle = page.getByRole('switch', { name: 'Continuous scanning' });
  if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
  await page.getByRole('button', { name: 'Start Camera' }).click();
  await page.getByRole('button', { name: 'Stop Camera' }).and(page.locator(':enabled')).waitFor();
  await page.evaluate(WATCH_VERDICTS_SCRIPT);
  const verifyMs = await measureVerifyRoundTrip(page, event._id, today);
  const measuredFloorMs = DECODE_INTERVAL_MS / 2 + DECODE_PAUSE_MS + verifyMs;

  const durations: number[] = [];
  for (const [round, ticket] of tickets.slice(0, ROUNDS + WARM_UP_ROUNDS).entries()) {
    // After the rest that follows a verdict, at a random moment of the decode cycle.
    await sleep(CONTINUOUS_RESUME_DELAY_MS + 100 + Math.random() * DECODE_INTERVAL_MS);
    const prefix = ticket.code.slice(0, 20);
    await page.evaluate((expecting) => {
      (window as unknown as { __expecting: string }).__expecting = expecting;
    }, prefix);
    const shownAt = Date.now();
    camera.showCode(ticket.code);
    const verdictAt = await page.waitForFunction((key) => (window as unknown as { __verdictAt: Record<string, number> }).__verdictAt[key], prefix, {
      timeout: VERDICT_TIMEOUT_MS,
    });
    const ms = Number(await verdictAt.jsonValue()) - shownAt;
    if (round >= WARM_UP_ROUNDS) durations.push(ms);
    console.log(`round ${round + 1 - WARM_UP_ROUNDS}${round < WARM_UP_ROUNDS ? ' (warm-up)' : ''}: ${ms} ms`);
  }

  const medianMs = median(durations);
  console.log(`\nscan → verdict, continuous mode, ${durations.length} tickets (Chromium fake camera, real server on PGlite)`);
  console.log(`  median ${(medianMs / 1000).toFixed(2)} s   min ${(Math.min(...durations) / 1000).toFixed(2)} s   max ${(Math.max(...durations) / 1000).toFixed(2)} s`);
  console.log(`  floor set by SPEC's constants (issue 10): ${(ISSUE_FLOOR_MS / 1000).toFixed(2)} s = ${DECODE_INTERVAL_MS / 2} ms median decode wait + ${DECODE_PAUSE_MS} ms pause + ${WORK_MS} ms decode and verify`);
  console.log(`  ratio to that floor: ${(medianMs / ISSUE_FLOOR_MS).toFixed(2)}×`);
  console.log(`  floor with this run's verify round trip (${verifyMs.toFixed(1)} ms): ${(measuredFloorMs / 1000).toFixed(2)} s, ratio ${(medianMs / measuredFloorMs).toFixed(2)}×`);
  // The headline for `npm run bench` (scripts/bench.ts).
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'bench:scan',
      figure: `scan → verdict median ${(medianMs / 1000).toFixed(2)} s (${durations.length} tickets)`,
      ratio: `${(medianMs / measuredFloorMs).toFixed(2)}× this run's floor`,
    })}`,
  );
  await context.close();
} finally {
  await browser.close();
  await server.stop();
  rmSync(cameraDir, { recursive: true, force: true });
}
