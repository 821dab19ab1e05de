/**
 * `npm run bench:lighthouse` (issue 24 item 4): what Lighthouse says of the built app as a gate phone
 * would load it, against issue 24's goals. The real server (`npm start`'s, as the end-to-end suite
 * starts it: a fresh data dir, the embedded database, a free port of 127.0.0.1) serves apps/web/dist
 * (the root script builds it first when stale); Debian's Chromium, headless, quiet on a closed
 * network; Lighthouse's default mobile settings (form factor mobile, Moto G Power screen, simulated
 * throttling: slow 4G and 4× CPU), performance category only.
 *
 * - /login cold, LIGHTHOUSE_RUNS times (default 3): before anyone signs in, and each run clears the
 *   origin's HTTP cache, service worker and Cache Storage (Lighthouse's storage reset).
 * - /scanner with a stored session, LIGHTHOUSE_RUNS times: the demo user signs in once through the
 *   screens (Playwright over CDP, the end-to-end suite's steps: organization, the live event,
 *   today), and the session cookie and SPEC §3's local storage keys the app wrote end up in the
 *   browser's profile (signInAndStoreSession). Each run is a Lighthouse user flow on a new tab of
 *   that profile: a navigation to /scanner (the same storage reset, which keeps cookies, local
 *   storage and IndexedDB, so the session stays and the page loads with a cold cache), then a
 *   timespan across a verify: wait 1 s, press 'Start Scanning', type a ticket of today into 'Or
 *   enter ticket ID manually:', press 'Verify', wait for the result card and 1 s more. The CLS goal
 *   is read on that timespan. It is throttled for real (devtools throttling: slow 4G latency, 4×
 *   CPU), or the verdict would always arrive within the 500 ms after the click in which CLS ignores
 *   shifts. A PerformanceObserver in the page records the same shifts as a cross-check, and those
 *   CLS leaves out as following input.
 *
 * Prints each run, then the medians of performance, FCP, LCP, TBT and CLS next to the goals (median /
 * goal as a ratio, and met or not), the machine's load and Lighthouse's benchmark index (its CPU
 * yardstick: simulated throttling scales the observed CPU work, so a busy machine reads slower),
 * and one `BENCH_RESULT {json}` line for `npm run bench` (scripts/bench.ts). The HTML reports of the
 * last run of each page go to apps/web/bench/lighthouse-reports/ (gitignored).
 *
 * Exits 1 only when it cannot measure (no Chromium, the server does not start, Lighthouse reports a
 * runtime error three times for one run), never on a figure. Not part of `npm test`.
 * Options (environment): LIGHTHOUSE_RUNS (default 3), CHROMIUM_PATH (e2e/support/chromium.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium as playwrightChromium, expect } from '@playwright/test';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { type LaunchedChrome, launch as launchChrome } from 'chrome-launcher';
import lighthouse, { type Flags, type Result, generateReport, startFlow } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { QUIET_CHROMIUM_ARGS, findChromium } from '../e2e/support/chromium.ts';
import { type DemoScope, todaysDayNumber } from '../e2e/support/demo-scope.ts';
import { admitsDay, readDemoTickets } from '../e2e/support/demo-tickets.ts';
import { openScannerForDay, startScanning } from '../e2e/support/main-job.ts';
import { startGatecheckServer } from '../e2e/support/server.ts';
import {
  LOGIN_GOALS,
  LighthouseRunError,
  type MeasureSummary,
  type PageFigures,
  SCANNER_GOALS,
  figuresOf,
  formatGoal,
  formatValue,
  median,
  pageMeasures,
  summarize,
  timespanClsOf,
} from './lighthouse-figures.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** Where the last runs' reports go: LIGHTHOUSE_REPORT_DIR (to keep two builds' reports apart), else bench/lighthouse-reports/. */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR ? `${process.env.LIGHTHOUSE_REPORT_DIR.replace(/\/$/, '')}/` : fileURLToPath(new URL('./lighthouse-reports/', import.meta.url));
/** How long the verify timespan goes on after the result card shows, in ms: late shifts (a toast, a list below) count too. */
const SETTLE_AFTER_VERDICT_MS = 1000;
/**
 * How long the verify timespan waits before its first click, in ms: more than the 500 ms at a
 * step's start in which Lighthouse counts shifts that follow input (cumulative-layout-shift.js).
 */
const QUIET_START_MS = 1000;
/** Tries of one run when Lighthouse reports a runtime error. */
const MAX_ATTEMPTS = 3;
/** Longest wait for the result card, in ms. */
const VERDICT_TIMEOUT_MS = 15_000;

/**
 * Lighthouse's settings for every step: its defaults (mobile, simulated throttling) made explicit,
 * the performance category only. English pages: the app follows the browser's language.
 */
const LIGHTHOUSE_FLAGS: Flags = {
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
  onlyCategories: ['performance'],
  logLevel: 'error',
};

interface LoginRun {
  figures: PageFigures;
  report: Result;
}

interface ScannerRun extends LoginRun {
  verifyCls: number;
  verifyReport: Result;
  /** The result card's title after the verify. */
  verdict: string;
  /** Layout shifts the page itself observed across the verify (see recordedLayoutShifts). */
  observed: { counted: number; afterInput: number };
}

/**
 * `measure()`, tried again up to MAX_ATTEMPTS times in all when Lighthouse reports a runtime error
 * (on a busy machine it sometimes loses the trace: NO_NAVSTART, 'Please run Lighthouse again').
 * @throws the last LighthouseRunError, or any other error at once.
 */
async function withRetries<T>(what: string, measure: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure();
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt >= MAX_ATTEMPTS) throw error;
      console.log(`${what}: ${error.message} Trying again (attempt ${attempt + 1} of ${MAX_ATTEMPTS}).`);
    }
  }
}

function requireReport(result: { lhr: Result } | undefined, what: string): Result {
  if (!result) throw new Error(`Lighthouse returned no result for ${what}.`);
  return result.lhr;
}

/** One cold Lighthouse navigation of /login on a new tab. */
async function measureLogin(browser: Browser, url: string): Promise<LoginRun> {
  const page = await browser.newPage();
  try {
    const report = requireReport(await lighthouse(url, LIGHTHOUSE_FLAGS, undefined, page), url);
    return { figures: figuresOf(report), report };
  } finally {
    await page.close();
  }
}

/**
 * Records every layout shift of the page from now on in `window.__layoutShifts` (value and whether it
 * followed input within 500 ms, which CLS leaves out): a cross-check of Lighthouse's timespan CLS.
 * A string, not a function: tsx would add helpers to a function's source that the page lacks.
 */
const RECORD_LAYOUT_SHIFTS_SCRIPT = `
  window.__layoutShifts = [];
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (entry) {
      window.__layoutShifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput });
    });
  }).observe({ type: 'layout-shift' });
`;

/** Layout shifts the page recorded since RECORD_LAYOUT_SHIFTS_SCRIPT ran: their sums, counted by CLS or following input. */
async function recordedLayoutShifts(page: Page): Promise<{ counted: number; afterInput: number }> {
  const shifts = (await page.evaluate('window.__layoutShifts')) as { value: number; hadRecentInput: boolean }[];
  const sum = (entries: typeof shifts) => entries.reduce((total, entry) => total + entry.value, 0);
  return { counted: sum(shifts.filter((entry) => !entry.hadRecentInput)), afterInput: sum(shifts.filter((entry) => entry.hadRecentInput)) };
}

/**
 * The verify of the timespan: 'Start Scanning', the ticket typed by hand, 'Verify', then the result
 * card naming it and SETTLE_AFTER_VERDICT_MS more. Resolves to the card's title ('Valid Ticket' or
 * 'Invalid Ticket').
 */
async function verifyByHand(page: Page, code: string): Promise<string> {
  await page.locator('::-p-aria(Start Scanning[role="button"])').click();
  await page.locator('::-p-aria(Or enter ticket ID manually:)').fill(code);
  await page.locator('::-p-aria(Verify[role="button"])').click();
  // The result card (SPEC §8) names the ticket by its first 20 characters.
  const verdict = await page.waitForFunction(
    (prefix: string) => {
      const cards = [...document.querySelectorAll('main [role="group"][aria-labelledby^="verdict-"]')];
      const card = cards.find((candidate) => candidate.textContent.includes(prefix));
      return card ? /(Valid|Invalid) Ticket/.exec(card.textContent)?.[0] : undefined;
    },
    { timeout: VERDICT_TIMEOUT_MS },
    code.slice(0, 20),
  );
  await sleep(SETTLE_AFTER_VERDICT_MS);
  return String(await verdict.jsonValue());
}

/**
 * One user flow on a new tab: a navigation to /scanner (simulated throttling), then a timespan across
 * a verify of `code`. The timespan throttles for real (Lighthouse's devtools throttling, the same
 * slow 4G and 4× CPU): a layout shift within 500 ms of a click is not counted by CLS, and unthrottled
 * on loopback the verdict would always come within that window, hiding any shift it causes.
 */
async function measureScanner(browser: Browser, url: string, code: string, run: number): Promise<ScannerRun> {
  const page = await browser.newPage();
  try {
    const flow = await startFlow(page, { name: `Gatecheck /scanner, run ${run}`, flags: LIGHTHOUSE_FLAGS });
    await flow.navigate(url, { name: 'Open /scanner with a stored session' });
    if (!new URL(page.url()).pathname.endsWith('/scanner')) {
      throw new Error(`/scanner did not stay open (now at ${page.url()}): the stored session or the chosen day was lost.`);
    }
    await flow.startTimespan({ name: 'Verify a ticket by hand', throttlingMethod: 'devtools' });
    // After the timespan's start: Lighthouse sets the phone's screen again there, and that resize
    // shifts everything (as following input).
    await page.evaluate(RECORD_LAYOUT_SHIFTS_SCRIPT);
    // Lighthouse counts every shift of a step's first 500 ms, input or not (its way round Chrome
    // flagging its own emulation resize as input): no click until they are over.
    await sleep(QUIET_START_MS);
    const verdict = await verifyByHand(page, code);
    await flow.endTimespan();
    const observed = await recordedLayoutShifts(page);
    const { steps } = await flow.createFlowResult();
    const [navigation, timespan] = steps;
    if (!navigation || !timespan) throw new Error(`The user flow has ${steps.length} steps, not 2.`);
    return {
      figures: figuresOf(navigation.lhr),
      report: navigation.lhr,
      verifyCls: timespanClsOf(timespan.lhr),
      verifyReport: timespan.lhr,
      verdict,
      observed,
    };
  } finally {
    await page.close();
  }
}

/**
 * Signs the demo user in through the screens, as the end-to-end suite does (organization, the live
 * event, today), and leaves the session in the browser profile Lighthouse's tabs open in: the
 * cookie and local storage the app wrote (SPEC §3's keys) are copied from the sign-in's own context
 * (the suite's steps need a context with a base URL, which the profile's default context has not),
 * then /scanner is opened once in the profile and 'Start Scanning' waits for 'Last synced', so the
 * app itself stores the day's door list there as on a phone in use. Playwright disconnects after:
 * Lighthouse measures alone.
 * @throws Error when a step does not reach its screen (the suite's assertions).
 */
async function signInAndStoreSession(browserURL: string, serverUrl: string): Promise<DemoScope> {
  const playwright = await playwrightChromium.connectOverCDP(browserURL);
  try {
    const signIn = await playwright.newContext({ baseURL: serverUrl, locale: 'en-US' });
    const signInPage = await signIn.newPage();
    const scope = await openScannerForDay(signInPage, 'today');
    const state = await signIn.storageState();
    await signIn.close();

    const profile = playwright.contexts()[0];
    if (!profile) throw new Error('Chromium has no default browser context.');
    await profile.addCookies(state.cookies);
    const page = await profile.newPage();
    // A same-origin page that runs none of the app, to write its local storage.
    await page.goto(`${serverUrl}${API_PREFIX}${apiPaths.health}`);
    const stored = state.origins.find((origin) => origin.origin === serverUrl)?.localStorage ?? [];
    await page.evaluate((items) => {
      for (const { name, value } of items) localStorage.setItem(name, value);
    }, stored);
    await page.goto(`${serverUrl}/scanner`);
    await expect(page.getByText('Scanning For')).toBeVisible();
    await startScanning(page);
    await expect(page.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);
    await page.close();
    return scope;
  } finally {
    // Disconnects: the browser was launched by chrome-launcher and keeps running.
    await playwright.close();
  }
}

/** The elements that shifted in a report's `layout-shifts` audit, largest first: 'selector (0.012)'. */
function shiftedElements(report: Result): string[] {
  const details = report.audits['layout-shifts']?.details;
  if (!details || details.type !== 'table') return [];
  return details.items.map((item) => {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    return `${node?.selector ?? node?.snippet ?? 'an element'} (${Number(item.score ?? 0).toFixed(3)})`;
  });
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

function tableRow(summary: MeasureSummary): string[] {
  return [
    summary.page,
    summary.metric,
    formatValue(summary.median, summary.unit),
    summary.values.map((value) => formatValue(value, summary.unit)).join(', '),
    summary.goal ? formatGoal(summary.goal, summary.unit) : '—',
    summary.ratio === null ? '—' : summary.ratio.toFixed(2),
    summary.met === null ? '' : summary.met ? 'met' : 'NOT met',
  ];
}

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`LIGHTHOUSE_RUNS must be a whole number ≥ 1 (it is '${process.env.LIGHTHOUSE_RUNS}').`);
const chromePath = findChromium();
const server = await startGatecheckServer('bench-lighthouse');
const loadAtStart = loadavg();
let chrome: LaunchedChrome | undefined;
try {
  chrome = await launchChrome({
    chromePath,
    // English pages (the app follows the browser's language), headless, quiet on a closed network.
    chromeFlags: ['--headless=new', '--lang=en-US', ...QUIET_CHROMIUM_ARGS],
    logLevel: 'error',
  });
  const browserURL = `http://127.0.0.1:${chrome.port}`;
  const browser = await puppeteer.connect({ browserURL, defaultViewport: null });

  const loginUrl = `${server.url}/login`;
  const loginRuns: LoginRun[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const result = await withRetries(`/login run ${run}`, () => measureLogin(browser, loginUrl));
    loginRuns.push(result);
    console.log(`/login run ${run}: performance ${formatValue(result.figures.performance, 'score')}, FCP ${formatValue(result.figures.fcpMs, 'ms')}, LCP ${formatValue(result.figures.lcpMs, 'ms')}, TBT ${formatValue(result.figures.tbtMs, 'ms')}, CLS ${formatValue(result.figures.cls, 'cls')} (benchmark index ${Math.round(result.report.environment.benchmarkIndex)})`);
  }

  const { event } = await signInAndStoreSession(browserURL, server.url);
  const today = todaysDayNumber(event);

  // A ticket of today never verified before for every attempt, so each verify shows the approved card.
  const tickets = readDemoTickets(server.dataDir).filter((ticket) => ticket.eventTitle === event.title && admitsDay(ticket, today));
  if (tickets.length < RUNS * MAX_ATTEMPTS) throw new Error(`Only ${tickets.length} demo tickets for today; need ${RUNS * MAX_ATTEMPTS}.`);
  const unusedTickets = tickets.values();
  const nextTicketCode = () => unusedTickets.next().value?.code ?? '';
  const scannerUrl = `${server.url}/scanner`;
  const scannerRuns: ScannerRun[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const result = await withRetries(`/scanner run ${run}`, () => measureScanner(browser, scannerUrl, nextTicketCode(), run));
    scannerRuns.push(result);
    const shifts = shiftedElements(result.verifyReport);
    console.log(
      `/scanner run ${run}: performance ${formatValue(result.figures.performance, 'score')}, FCP ${formatValue(result.figures.fcpMs, 'ms')}, LCP ${formatValue(result.figures.lcpMs, 'ms')}, TBT ${formatValue(result.figures.tbtMs, 'ms')}, CLS (load) ${formatValue(result.figures.cls, 'cls')}; CLS across the verify (${result.verdict}) ${formatValue(result.verifyCls, 'cls')}${shifts.length > 0 ? ` (shifted: ${shifts.join('; ')})` : ''}; the page's own observer: ${formatValue(result.observed.counted, 'cls')} counted, ${formatValue(result.observed.afterInput, 'cls')} within 500 ms of input (not counted) (benchmark index ${Math.round(result.report.environment.benchmarkIndex)})`,
    );
  }
  await browser.disconnect();

  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(join(REPORT_DIR, 'login.html'), generateReport(loginRuns.at(-1)!.report, 'html'));
  writeFileSync(join(REPORT_DIR, 'scanner.html'), generateReport(scannerRuns.at(-1)!.report, 'html'));
  writeFileSync(join(REPORT_DIR, 'scanner-verify.html'), generateReport(scannerRuns.at(-1)!.verifyReport, 'html'));
  // Every run's report as JSON, for what the HTML shows only in part (LCP breakdown, long tasks, bootup time).
  loginRuns.forEach((run, index) => writeFileSync(join(REPORT_DIR, `login-${index + 1}.json`), JSON.stringify(run.report)));
  scannerRuns.forEach((run, index) => writeFileSync(join(REPORT_DIR, `scanner-${index + 1}.json`), JSON.stringify(run.report)));

  const summaries = [
    ...pageMeasures('/login', loginRuns.map((run) => run.figures), LOGIN_GOALS),
    ...pageMeasures('/scanner', scannerRuns.map((run) => run.figures), { performance: SCANNER_GOALS.performance }).map((measure) =>
      measure.metric === 'CLS' ? { ...measure, metric: 'CLS (load)' } : measure,
    ),
    { page: '/scanner', metric: 'CLS across a verify', unit: 'cls' as const, values: scannerRuns.map((run) => run.verifyCls), goal: SCANNER_GOALS.verifyCls },
  ].map(summarize);
  const benchmarkIndex = median([...loginRuns, ...scannerRuns].map((run) => run.report.environment.benchmarkIndex));

  console.log(`\nLighthouse ${loginRuns[0]!.report.lighthouseVersion}, ${loginRuns[0]!.report.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}, mobile, simulated throttling; median of ${RUNS} runs each:\n`);
  printTable(['page', 'metric', 'median', 'runs', 'goal', 'median / goal', ''], summaries.map(tableRow));
  const withGoal = summaries.filter((summary) => summary.met !== null);
  const met = withGoal.filter((summary) => summary.met).length;
  const loadAtEnd = loadavg();
  console.log(`\nGoals met: ${met} of ${withGoal.length}.`);
  console.log(
    `Machine load (1-minute average) ${loadAtStart[0]?.toFixed(1)} at the start, ${loadAtEnd[0]?.toFixed(1)} at the end; Lighthouse's benchmark index (median) ${Math.round(benchmarkIndex)} (a busy machine reads slower).`,
  );
  console.log(`Reports of the last runs: ${REPORT_DIR}{login,scanner,scanner-verify}.html; every run's as JSON: {login,scanner}-N.json`);

  const figure = (page: string, metric: string) => {
    const summary = summaries.find((candidate) => candidate.page === page && candidate.metric === metric);
    return summary ? formatValue(summary.median, summary.unit) : '?';
  };
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'bench:lighthouse',
      figure: `/login perf ${figure('/login', 'performance')}, LCP ${figure('/login', 'LCP')}, TBT ${figure('/login', 'TBT')}, CLS ${figure('/login', 'CLS')}; /scanner perf ${figure('/scanner', 'performance')}, verify CLS ${figure('/scanner', 'CLS across a verify')}`,
      ratio: `${met} of ${withGoal.length} goals met`,
    })}`,
  );
} finally {
  chrome?.kill();
  await server.stop();
}
