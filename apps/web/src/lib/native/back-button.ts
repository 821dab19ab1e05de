/**
 * Android's hardware back button (issue 9 item 4): it does what SPEC's back does on the screen in
 * view (SPEC §4 "Going back steps one screen backward"), and leaves the app from /login.
 *
 * One `App.addListener('backButton')` for the whole app (`installBackButton`, at app start); each
 * screen registers its back with `useBackButton(goBack)` while mounted, the latest mounted screen
 * winning. With no screen handler, the button goes back in the WebView's history when it can and
 * otherwise leaves the app (Capacitor's own default). Does nothing in a browser (its back button
 * is the browser's).
 *
 * An open dialog or sheet comes first (decision 091): while one is open (`useBackButtonClosesDialog`,
 * in components/ui's Sheet and ConfirmDialog), back closes the latest opened and the screen stays,
 * as Android users expect of a sheet and as Escape does on a keyboard.
 */
import type { PluginListenerHandle } from '@capacitor/core';
import { useEffect, useRef } from 'react';
import { isNativePlatform } from './platform.ts';

const handlers: Array<{ current: () => void }> = [];
/** The open dialogs' close functions, the latest opened last; they come before the screens'. */
const dialogHandlers: Array<{ current: () => void }> = [];

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
      const dialog = dialogHandlers.at(-1);
      const handler = handlers.at(-1);
      if (dialog) dialog.current();
      else if (handler) handler.current();
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

/**
 * While `isOpen`, the hardware back button runs `close` (the dialog's or sheet's own close, as its
 * Escape does) instead of the screen's back; the latest opened dialog is closed first. No effect in
 * a browser.
 */
export function useBackButtonClosesDialog(isOpen: boolean, close: () => void): void {
  const ref = useRef(close);
  useEffect(() => {
    ref.current = close;
  }, [close]);
  useEffect(() => {
    if (!isOpen) return;
    const entry = { current: () => ref.current() };
    dialogHandlers.push(entry);
    return () => {
      const index = dialogHandlers.indexOf(entry);
      if (index !== -1) dialogHandlers.splice(index, 1);
    };
  }, [isOpen]);
}
