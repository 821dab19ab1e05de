/**
 * Android's hardware back button (issue 9 item 4): it does what SPEC's back does on the screen in
 * view (SPEC §4 "Going back steps one screen backward"), and leaves the app from /login.
 *
 * One `App.addListener('backButton')` for the whole app (`installBackButton`, at app start); each
 * screen registers its back with `useBackButton(goBack)` while mounted, the latest mounted screen
 * winning. With no screen handler, the button goes back in the WebView's history when it can and
 * otherwise leaves the app (Capacitor's own default). Does nothing in a browser (its back button
 * is the browser's).
 */
import type { PluginListenerHandle } from '@capacitor/core';
import { useEffect, useRef } from 'react';
import { isNativePlatform } from './platform.ts';

const handlers: Array<{ current: () => void }> = [];

/**
 * Listens to the back button on native; resolves to a function that stops listening.
 * Resolves to a no-op in a browser. Never rejects.
 */
export async function installBackButton(): Promise<() => Promise<void>> {
  if (!isNativePlatform()) return async () => undefined;
  let handle: PluginListenerHandle;
  try {
    // On demand: a browser never loads the plugin (docs/decisions/082).
    const { App } = await import('@capacitor/app');
    handle = await App.addListener('backButton', ({ canGoBack }) => {
      const handler = handlers.at(-1);
      if (handler) handler.current();
      else if (canGoBack) window.history.back();
      else void exitApp();
    });
  } catch {
    return async () => undefined;
  }
  return () => handle.remove();
}

/** Closes the app (Android); resolves when asked, never rejects. */
export async function exitApp(): Promise<void> {
  await import('@capacitor/app').then(({ App }) => App.exitApp()).catch(() => undefined);
}

/**
 * While the calling screen is mounted, the hardware back button runs `onBack` (the screen's SPEC
 * back, or `exitApp` on /login). The latest `onBack` is used; no effect in a browser.
 */
export function useBackButton(onBack: () => void): void {
  const ref = useRef(onBack);
  useEffect(() => {
    ref.current = onBack;
  }, [onBack]);
  useEffect(() => {
    const entry = { current: () => ref.current() };
    handlers.push(entry);
    return () => {
      const index = handlers.indexOf(entry);
      if (index !== -1) handlers.splice(index, 1);
    };
  }, []);
}
