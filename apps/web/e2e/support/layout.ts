/**
 * Layout checks for the e2e suite, measured in the page as staff see it (issue 15 items 9 and 14):
 * boxes inside the viewport, sideways scrolling, content sticking out of its control, touch target
 * sizes, toasts over other elements, and layout shift.
 */
import type { Locator, Page } from '@playwright/test';

/** A box in CSS px, viewport coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest touch target staff can hit with gloves, in CSS px (WCAG 2.5.5, Apple HIG). */
export const MIN_TOUCH_TARGET_PX = 44;

/** `locator`'s box in viewport coordinates. @throws Error when it is not rendered. */
export async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error(`${String(locator)} is not rendered`);
  return box;
}

/** True when `box` lies wholly inside the viewport of `page` (1 px of rounding allowed). */
export async function isInViewport(page: Page, box: Box): Promise<boolean> {
  const { width, height } = await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  return box.x >= -1 && box.y >= -1 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1;
}

/** True when the two boxes overlap by more than 1 px each way. */
export function overlaps(a: Box, b: Box): boolean {
  return a.x + 1 < b.x + b.width && b.x + 1 < a.x + a.width && a.y + 1 < b.y + b.height && b.y + 1 < a.y + a.height;
}

/** The page's sideways overflow in px (0 when nothing scrolls sideways). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/**
 * Descriptions of the buttons and inputs under `root` whose content sticks out of them (an icon or
 * label drawn past the control's edge, or clipped inside it), e.g. `"Start Camera": label 12 px past the right edge`.
 */
export async function overflowingControls(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = [];
    for (const control of element.querySelectorAll<HTMLElement>('button, input')) {
      const name = control.getAttribute('aria-label') ?? (control.textContent?.trim() || control.id);
      if (control.scrollWidth > control.clientWidth + 1) found.push(`"${name}": content ${control.scrollWidth - control.clientWidth} px wider than the control`);
      const outer = control.getBoundingClientRect();
      for (const child of control.querySelectorAll('*')) {
        const inner = child.getBoundingClientRect();
        if (inner.width === 0) continue;
        if (inner.left < outer.left - 1 || inner.right > outer.right + 1 || inner.top < outer.top - 1 || inner.bottom > outer.bottom + 1) {
          found.push(`"${name}": a ${child.tagName.toLowerCase()} sticks out of the control`);
          break;
        }
      }
    }
    return found;
  });
}

/**
 * Buttons, inputs and links under the elements of `roots` (taken as they are now: no waiting for them)
 * smaller than `MIN_TOUCH_TARGET_PX` either way, described.
 */
export async function smallTouchTargets(roots: Locator): Promise<string[]> {
  return roots.evaluateAll((elements, min) => {
    const found: string[] = [];
    for (const element of elements) {
      for (const control of element.querySelectorAll<HTMLElement>('button, input, a')) {
        // The laid-out size: a toast caught mid-animation is drawn scaled, but it rests at this size.
        const [width, height] = [control.offsetWidth, control.offsetHeight];
        if (width === 0 && height === 0) continue;
        const name = control.getAttribute('aria-label') ?? (control.textContent?.trim() || control.tagName.toLowerCase());
        if (width < min || height < min) found.push(`"${name}": ${Math.round(width)}x${Math.round(height)} px`);
      }
    }
    return found;
  }, MIN_TOUCH_TARGET_PX);
}

/**
 * The boxes of the toasts on screen now (sonner), leaving out those already on their way out and
 * those beyond the toaster's visible stack (kept, but not drawn, until the ones in front go).
 */
export async function toastBoxes(page: Page): Promise<Box[]> {
  // One look at all of them: a toast that leaves between two looks must not be waited for.
  return page.locator('[data-sonner-toast][data-removed="false"][data-visible="true"]').evaluateAll((toasts) =>
    toasts.map((toast) => {
      const { x, y, width, height } = toast.getBoundingClientRect();
      return { x, y, width, height };
    }),
  );
}

/**
 * Starts recording layout shifts in `page` (call before its first navigation). Every shift counts,
 * also those right after a tap, which the CLS metric would forgive: the verdict lands within that
 * window and is exactly the shift staff suffer.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.defineProperty(window, '__layoutShifts', { value: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if ('value' in entry && typeof entry.value === 'number') shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Sum of the layout shifts recorded since the last call (see `recordLayoutShifts`); resets the record. */
export async function takeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(() => {
    const shifts: unknown = Reflect.get(window, '__layoutShifts');
    if (!Array.isArray(shifts)) throw new Error('recordLayoutShifts was not called before the page loaded');
    const total = shifts.reduce((sum: number, value: unknown) => sum + (typeof value === 'number' ? value : 0), 0);
    shifts.length = 0;
    return total;
  });
}
