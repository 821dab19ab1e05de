/**
 * Safe areas (decision 091): on a phone that draws the app under its status bar and gesture bar
 * (Android 15+ edge to edge, iOS with viewport-fit=cover), every screen's header starts below the
 * status bar, its last actions end above the gesture bar, and the status bar's area is the bar's
 * own dark colour.
 *
 * The insets are applied the two ways a phone applies them: Chromium's own env(safe-area-inset-*)
 * through the DevTools protocol (`Emulation.setSafeAreaInsetsOverride`, as iOS's WebView reports
 * them), and the `--safe-area-inset-*` properties Capacitor's Android SystemBars sets on <html>.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, openApp, screen, signIn, startScanning } from './support/main-job.ts';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { boxOf } from './support/layout.ts';

/** A tall phone's insets in CSS px: status bar (with a camera cutout) and gesture bar. */
const INSETS = { top: 48, bottom: 34 };

/** The colour painted at (x, y) of the viewport, as [r, g, b]. */
async function colourAt(page: Page, x: number, y: number): Promise<number[]> {
  const { PNG } = await import('pngjs');
  const png = PNG.sync.read(await page.screenshot({ animations: 'disabled' }));
  const scale = png.width / (page.viewportSize()?.width ?? png.width);
  const offset = (Math.round(y * scale) * png.width + Math.round(x * scale)) * 4;
  return [png.data[offset] ?? -1, png.data[offset + 1] ?? -1, png.data[offset + 2] ?? -1];
}

/**
 * On the screen in view: `top` starts below the status bar, `bottom` (scrolled into view at the end
 * of the page) ends above the gesture bar, and the status bar's area is slate-900.
 */
async function expectClearOfSystemBars(page: Page, top: Locator, bottom: Locator): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  expect((await boxOf(top)).y, 'top of the screen under the status bar').toBeGreaterThanOrEqual(INSETS.top);
  expect(await colourAt(page, 200, INSETS.top / 2)).toEqual([15, 23, 42]);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const { height } = page.viewportSize() ?? { height: 0 };
  const box = await boxOf(bottom);
  expect(box.y + box.height, 'last action under the gesture bar').toBeLessThanOrEqual(height - INSETS.bottom);
}

test("every screen's header and last actions stay clear of the status and gesture bars, by env() and by Capacitor's inset properties", async ({ page, saveScreen }) => {
  // iOS and browsers: the WebView reports env(safe-area-inset-*).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { top: INSETS.top, bottom: INSETS.bottom, left: 0, right: 0 } });

  await openApp(page);
  const language = page.getByRole('group', { name: 'Language' });
  await expectClearOfSystemBars(page, page.getByRole('heading', { name: 'Gatecheck Scanner' }), language);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreen(page, 'safe-area-login', { fullPage: false });

  await signIn(page);
  await expectClearOfSystemBars(page, page.getByRole('banner').getByRole('button').first(), language);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreen(page, 'safe-area-organizations', { fullPage: false });

  const scope = await findLiveThreeDayEvent(page.request);
  await chooseOrganization(page, scope.organization.name);
  await chooseEvent(page, scope.event.title);
  await chooseDay(page, todaysDayNumber(scope.event));
  await startScanning(page);
  await expectClearOfSystemBars(page, page.getByRole('button', { name: 'Back' }), language);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreen(page, 'safe-area-scanner', { fullPage: false });

  // Android: Capacitor's SystemBars sets the insets as properties on <html>; env() reports none.
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: {} });
  await page.evaluate(({ top, bottom }) => {
    const style = document.documentElement.style;
    style.setProperty('--safe-area-inset-top', `${top}px`);
    style.setProperty('--safe-area-inset-bottom', `${bottom}px`);
    style.setProperty('--safe-area-inset-left', '0px');
    style.setProperty('--safe-area-inset-right', '0px');
  }, INSETS);
  await expectClearOfSystemBars(page, page.getByRole('button', { name: 'Back' }), language);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await saveScreen(page, 'safe-area-scanner-bottom-android', { fullPage: false });

  // The padding follows the insets: with none, the header is back at the top.
  await page.evaluate(() => ['top', 'bottom', 'left', 'right'].forEach((side) => document.documentElement.style.setProperty(`--safe-area-inset-${side}`, '0px')));
  await page.evaluate(() => window.scrollTo(0, 0));
  expect((await boxOf(screen(page).getByRole('button', { name: 'Back' }))).y).toBeLessThan(INSETS.top);
});
