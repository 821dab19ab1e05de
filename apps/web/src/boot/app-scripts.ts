/**
 * The app's module scripts, started after the first paint (docs/decisions/099).
 *
 * The build (apps/web/boot-plugin.ts) moves the entry's `<script type="module">` and its
 * `<link rel="modulepreload">`s into an inert `<template id="app-scripts">` in `<head>`; this puts
 * live copies of them into `<head>` once the page has painted. Why: the prerendered page must paint
 * before any of the app's script runs, however fast the script arrives (from the service worker's
 * precache or a fast network, React's start and hydration would otherwise run before the first
 * frame); and the downloads then do not compete with the page for a slow network's first round
 * trips. The cost: the downloads start one frame later than the preload scanner would start them.
 */

/** The id of the `<template>` holding the app's scripts (boot-plugin.ts writes it). */
export const APP_SCRIPTS_TEMPLATE_ID = 'app-scripts';

/**
 * Puts live copies of the template's module scripts and modulepreloads (same attributes, same
 * order) into `<head>` and removes the template; does nothing when there is none (the dev server,
 * or already started). A modulepreload marked `data-path` (the code of a signed-in screen,
 * boot-plugin.ts) is started only at that path and with a stored session (`<html
 * data-boot="loading">`, first-paint.ts): that screen is what the app will show. Returns the number
 * of elements started.
 */
export function startAppScripts(document: Document = window.document): number {
  const template = document.getElementById(APP_SCRIPTS_TEMPLATE_ID);
  if (!(template instanceof HTMLTemplateElement)) return 0;
  template.remove();
  const hasStoredSession = document.documentElement.getAttribute('data-boot') === 'loading';
  const path = document.location.pathname;
  const inert = [...template.content.querySelectorAll('link[rel="modulepreload"], script[type="module"]')].filter((element) => {
    const screenPath = element.getAttribute('data-path');
    return screenPath === null || (hasStoredSession && screenPath === path);
  });
  for (const element of inert) {
    // A new element, not a clone: a script parsed inside a <template> never runs, even when moved.
    const live = document.createElement(element.localName);
    for (const { name, value } of element.attributes) if (name !== 'data-path') live.setAttribute(name, value);
    document.head.append(live);
  }
  return inert.length;
}

/** The longest wait, after the page is parsed, for the browser to report its first contentful paint, in ms. */
export const FIRST_PAINT_WAIT_LIMIT_MS = 1000;

/**
 * Calls `start` once the browser has reported the page's first contentful paint (Paint Timing,
 * `first-contentful-paint`), so the app's script never runs, nor is fetched, before the painted
 * frame is on screen: on a busy phone the frame reaches the screen tens of ms after the main thread
 * made it. Where Paint Timing is missing: after the next animation frame and a task. A hidden page
 * (a background tab, whose frames wait until it shows) starts at once; and never later than
 * FIRST_PAINT_WAIT_LIMIT_MS after the call.
 */
function afterFirstPaint(start: () => void): void {
  let hasStarted = false;
  const startOnce = () => {
    if (hasStarted) return;
    hasStarted = true;
    start();
  };
  if (document.visibilityState === 'hidden') {
    startOnce();
    return;
  }
  setTimeout(startOnce, FIRST_PAINT_WAIT_LIMIT_MS);
  const hasPaintTiming = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
  if (!hasPaintTiming) {
    requestAnimationFrame(() => setTimeout(startOnce, 0));
    return;
  }
  if (performance.getEntriesByName('first-contentful-paint').length > 0) {
    startOnce();
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    startOnce();
  });
  observer.observe({ type: 'paint' });
}

/** Starts the app's scripts (`startAppScripts`) once the parsed page's first paint is on screen (`afterFirstPaint`). */
export function startAppScriptsAfterFirstPaint(): void {
  const afterParse = () => afterFirstPaint(() => startAppScripts());
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterParse, { once: true });
  else afterParse();
}
