/**
 * The next tap is always in view (decision 093), on the phone sizes staff carry: 320x568, 360x740 and
 * 390x844 CSS px, touch screen. One sign-in per size walks the flow, and on each screen the control
 * staff tap next — the first organization, the live event, today's day, 'Start Scanning', the manual
 * field and 'Verify' — is in view or one thumb swipe away, and while a toast of SPEC §4/§8 is showing
 * ('Organization Selected', 'Error', 'Event Selected', 'Day Selected', 'Valid Ticket') that toast
 * neither covers it nor takes a tap at its centre (`document.elementFromPoint`); a tap on the toast's
 * text goes through to the screen, and its close button takes a tap. Screenshots of each
 * screen with its toast go to e2e/artifacts/ (next-tap-<width>-*.png).
 */
import type { Locator, Page } from '@playwright/test';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { admitsDay } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { type Box, boxOf, isInViewport } from './support/layout.ts';
import { chooseDay, chooseEvent, chooseOrganization, dayCard, expectVerdict, openApp, screen, signIn, startScanning, verifyByHand } from './support/main-job.ts';

/**
 * How far one thumb swipe scrolls a phone's page, as a share of the viewport's height: a swipe
 * from near the bottom of the screen to near its top moves the content about three quarters of it.
 */
const ONE_SWIPE_SHARE = 0.75;

/** Where a control lies and what lies at its centre while toasts are showing, measured in the page in one go. */
interface TapReport {
  /** The viewport's height, in CSS px. */
  viewportHeight: number;
  /** The control's top edge in the viewport before any swipe, in CSS px. */
  top: number;
  /** How far the page had to scroll for the control's bottom edge to come into view, in CSS px (≤ 0: in view). */
  scrollNeeded: number;
  /** The toasts on screen (mounted, drawn, not leaving), as boxes. */
  toasts: Box[];
  /** Toasts whose box overlaps the control's. */
  covering: Box[];
  /** The element hit at the control's centre, described, or 'the control' when it is the control or inside it. */
  hit: string;
  /** What a tap on the front toast's text hits: 'the screen beneath' when the toast lets it through. */
  hitOnToastText: string;
  /** What a tap on the front toast's close button hits: 'the close button' when it takes it. */
  hitOnCloseButton: string;
}

/**
 * In one call into the page, so that a brief toast (2 s) is still up when it is measured: scrolls to
 * the top first when `isFromTop`; when `control` is below the screen but within one swipe, scrolls by
 * the least that shows it wholly (its bottom edge at the bottom of the screen); then waits (up to 3 s)
 * until a toast is on screen and has stopped moving (a stack settles), and reports what a tap at the
 * centre of `control` would hit and which toasts cover it.
 */
async function tapUnderToast(control: Locator, { isFromTop }: { isFromTop: boolean }): Promise<TapReport> {
  return control.evaluate(
    async (element, { isFromTop, swipeShare }) => {
      if (isFromTop) window.scrollTo(0, 0);
      const before = element.getBoundingClientRect();
      const scrollNeeded = before.bottom - window.innerHeight;
      if (scrollNeeded > 1 && scrollNeeded <= window.innerHeight * swipeShare) window.scrollBy(0, Math.ceil(scrollNeeded));
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      const toastRects = () =>
        [...document.querySelectorAll('[data-sonner-toast][data-mounted="true"][data-removed="false"][data-visible="true"]')].map((toast) => {
          const { x, y, width, height } = toast.getBoundingClientRect();
          return { x, y, width, height };
        });
      const deadline = performance.now() + 3_000;
      let previous = JSON.stringify(toastRects());
      for (;;) {
        await frame();
        const now = JSON.stringify(toastRects());
        if ((now !== '[]' && now === previous) || performance.now() > deadline) break;
        previous = now;
      }
      const toasts = toastRects();
      const box = element.getBoundingClientRect();
      const covering = toasts.filter((toast) => toast.x + 1 < box.right && box.left + 1 < toast.x + toast.width && toast.y + 1 < box.bottom && box.top + 1 < toast.y + toast.height);
      const target = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const describe = (node: Element | null) => {
        if (node === null) return 'nothing';
        const inToast = node.closest('[data-sonner-toast]') === null ? '' : ' inside a toast';
        return `<${node.tagName.toLowerCase()}> "${(node.textContent ?? '').trim().slice(0, 40)}"${inToast}`;
      };
      const hit = target !== null && element.contains(target) ? 'the control' : describe(target);
      // The front toast: its text lets taps through to the screen, its close button takes them.
      const front = document.querySelector('[data-sonner-toast][data-front="true"][data-removed="false"]');
      const title = front?.querySelector('[data-title]')?.getBoundingClientRect();
      const close = front?.querySelector('[data-close-button]');
      const closeBox = close?.getBoundingClientRect();
      const onText = title === undefined ? null : document.elementFromPoint(title.left + 4, title.top + title.height / 2);
      const onClose = closeBox === undefined ? null : document.elementFromPoint(closeBox.left + closeBox.width / 2, closeBox.top + closeBox.height / 2);
      const hitOnToastText = onText !== null && onText.closest('[data-sonner-toaster]') === null ? 'the screen beneath' : describe(onText);
      const hitOnCloseButton = onClose !== null && close?.contains(onClose) === true ? 'the close button' : describe(onClose);
      return { viewportHeight: window.innerHeight, top: before.top, scrollNeeded, toasts, covering, hit, hitOnToastText, hitOnCloseButton };
    },
    { isFromTop, swipeShare: ONE_SWIPE_SHARE },
  );
}

/**
 * Expects `control` (named `what` in messages) in the viewport, or brought wholly into it by one
 * swipe, which the check then does (the smallest scroll that shows it: its bottom edge lands at the
 * bottom of the screen, where a bottom toast would sit).
 */
async function expectInViewOrOneSwipe(page: Page, control: Locator, what: string): Promise<void> {
  const height = await page.evaluate(() => window.innerHeight);
  const box = await boxOf(control);
  expect(box.y, `${what} is below the top of the screen`).toBeGreaterThanOrEqual(-1);
  const scrollNeeded = box.y + box.height - height;
  if (scrollNeeded <= 1) return;
  expect(scrollNeeded, `${what} is ${Math.round(scrollNeeded)} px below the screen: more than one swipe (${Math.round(height * ONE_SWIPE_SHARE)} px)`).toBeLessThanOrEqual(height * ONE_SWIPE_SHARE);
  await page.evaluate((by) => window.scrollBy(0, Math.ceil(by)), scrollNeeded);
  await expect.poll(async () => (await boxOf(control)).y + (await boxOf(control)).height, { message: `${what} scrolled into view` }).toBeLessThanOrEqual(height + 1);
}

/**
 * `control` is in view (or one swipe away), and the toast showing neither covers it nor takes its tap.
 * `isFromTop`: measured on the screen as it opens, scrolled to its top (a step back restores the
 * scroll the list was left at, e.g. where the organization chosen before was tapped); otherwise as
 * the app left it (the scanner scrolls a new verdict and the field into view itself).
 */
async function expectNextTapFree(control: Locator, what: string, { isFromTop = true } = {}): Promise<void> {
  const report = await tapUnderToast(control, { isFromTop });
  expect(report.top, `${what} is below the top of the screen`).toBeGreaterThanOrEqual(-1);
  const oneSwipe = report.viewportHeight * ONE_SWIPE_SHARE;
  expect(report.scrollNeeded, `${what} is ${Math.round(report.scrollNeeded)} px below the screen: more than one swipe (${Math.round(oneSwipe)} px)`).toBeLessThanOrEqual(oneSwipe);
  expect(report.toasts.length, `a toast is showing over the screen of ${what}`).toBeGreaterThan(0);
  expect(report.hit, `a tap at the centre of ${what} hits`).toBe('the control');
  expect(report.covering, `toasts covering ${what}`).toEqual([]);
  expect(report.hitOnToastText, 'a tap on the toast\'s text goes to').toBe('the screen beneath');
  expect(report.hitOnCloseButton, 'a tap on the toast\'s close button goes to').toBe('the close button');
}

for (const viewport of [
  { width: 320, height: 568 },
  { width: 360, height: 740 },
  { width: 390, height: 844 },
]) {
  test.describe(`on a ${viewport.width}x${viewport.height} phone`, () => {
    test.use({ viewport, hasTouch: true, isMobile: true });

    test(`at ${viewport.width}x${viewport.height} the next tap of each screen is in view and no toast covers it or takes its tap`, async ({ page, ticketPool, saveScreen }) => {
      const shot = (name: string) => saveScreen(page, `next-tap-${viewport.width}-${name}`, { fullPage: false });
      await openApp(page);
      await signIn(page);
      const { organization, event } = await findLiveThreeDayEvent(page.request);
      const today = todaysDayNumber(event);
      const firstOrganization = screen(page).getByRole('listitem').first().getByRole('button');
      const liveEvent = screen(page).getByRole('button', { name: new RegExp(event.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

      // Organizations: no toast on arrival; the first card is in view.
      await expectInViewOrOneSwipe(page, firstOrganization, 'the first organization');

      // Events, under 'Organization Selected'.
      await chooseOrganization(page, organization.name);
      await expect(page.getByText('Organization Selected')).toBeVisible();
      await expectNextTapFree(liveEvent, 'the live event');
      await shot('events');

      // Back to the organizations while their list cannot be loaded again: the kept list stays,
      // under SPEC §8's 'Error' / 'Could not load organizations'.
      const organizationsUrl = (url: URL) => url.pathname === `${API_PREFIX}${apiPaths.organizations}`;
      await page.route(organizationsUrl, (route) =>
        route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ code: 'rate_limited', message: 'Too many requests' }) }),
      );
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page).toHaveURL(/\/organization-select$/);
      await expect(page.getByText('Could not load organizations')).toBeVisible();
      await expectNextTapFree(firstOrganization, 'the first organization');
      await shot('organizations');
      await page.unroute(organizationsUrl);

      // Days, under 'Event Selected': today's day.
      await chooseOrganization(page, organization.name);
      await chooseEvent(page, event.title);
      await expect(page.getByText('Event Selected')).toBeVisible();
      await expectNextTapFree(dayCard(page, today), "today's day");
      await shot('days');
      // Today's day is the first card, marked Today, above the other days' 'Not today' warnings.
      await expect(screen(page).getByRole('listitem').first()).toContainText(`Day ${today}`);
      await expect(screen(page).getByRole('listitem').first()).toContainText('Today');

      // The scanner, under 'Day Selected': 'Start Scanning'.
      await chooseDay(page, today);
      await expect(page.getByText('Day Selected')).toBeVisible();
      await expectNextTapFree(page.getByRole('button', { name: 'Start Scanning' }), "'Start Scanning'");
      await shot('scanner');

      // A ticket checked by hand: under 'Valid Ticket', the field and Verify for the next one.
      await startScanning(page);
      // The field and Verify, below the camera: in view or one swipe away, together.
      const field = page.getByLabel('Or enter ticket ID manually:');
      const verify = page.getByRole('button', { name: 'Verify' });
      await expectInViewOrOneSwipe(page, verify, "'Verify'");
      expect(await isInViewport(page, await boxOf(field)), 'the manual field is in view with Verify').toBe(true);
      const ticket = ticketPool.take(`for "${event.title}" on day ${today}`, (candidate) => candidate.eventTitle === event.title && admitsDay(candidate, today));
      await verifyByHand(page, ticket.code);
      await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
      // The full-screen verdict flash (decision 035) covers everything on purpose for its second; the toast outlasts it.
      await expect(page.locator('[data-verdict]')).toHaveCount(0);
      await expectNextTapFree(field, 'the manual field', { isFromTop: false });
      await expectNextTapFree(verify, "'Verify'", { isFromTop: false });
      await shot('verdict');
    });
  });
}
