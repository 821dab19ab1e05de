/**
 * The native camera renders behind the WebView (issue 9 item 2): while it runs, the page must let it
 * show through. `useTransparentWebView(true)` puts `TRANSPARENT_WEBVIEW_CLASS` on `<html>`, `<body>`
 * and `#root`, whose rule in index.css makes their backgrounds transparent; the scanner screen keeps
 * its own panels opaque, and the camera box itself has no background while the class is on. Turning
 * it off (or unmounting) restores the page.
 */
import { useLayoutEffect } from 'react';

/** The class that makes the page's ancestors transparent (index.css). */
export const TRANSPARENT_WEBVIEW_CLASS = 'native-camera-behind';

/** The elements that paint a background under the whole screen. */
function ancestors(): Element[] {
  return [document.documentElement, document.body, document.getElementById('root')].filter((element): element is HTMLElement => element !== null);
}

/**
 * @param isActive true while a 'behind-webview' camera is running.
 */
export function useTransparentWebView(isActive: boolean): void {
  // With the commit, not after the paint (docs/decisions/063, kept by 081): the page is see-through
  // exactly while the screen shows a running camera.
  useLayoutEffect(() => {
    if (!isActive) return;
    const elements = ancestors();
    for (const element of elements) element.classList.add(TRANSPARENT_WEBVIEW_CLASS);
    return () => {
      for (const element of elements) element.classList.remove(TRANSPARENT_WEBVIEW_CLASS);
    };
  }, [isActive]);
}
