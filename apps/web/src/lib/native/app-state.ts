/**
 * The app going to the background and coming back (decision 091): `@capacitor/app`'s
 * `appStateChange` on Android and iOS. A screen that holds the camera releases it in the background
 * (another app, the lock screen, a call) and takes it again on return. Nothing in a browser, where
 * the tab's own visibility is the browser's business.
 */
import { App } from '@capacitor/app';
import type { PluginListenerHandle } from '@capacitor/core';
import { useEffect, useRef } from 'react';
import { isNativePlatform } from './platform.ts';

/**
 * While the calling component is mounted, `onChange(false)` runs when the native app goes to the
 * background and `onChange(true)` when it is in the foreground again; the latest `onChange` is used.
 * No effect in a browser, or when the plugin cannot listen.
 */
export function useAppStateChange(onChange: (isActive: boolean) => void): void {
  const ref = useRef(onChange);
  useEffect(() => {
    ref.current = onChange;
  }, [onChange]);
  useEffect(() => {
    if (!isNativePlatform()) return;
    let isMounted = true;
    let handle: PluginListenerHandle | null = null;
    App.addListener('appStateChange', ({ isActive }) => ref.current(isActive)).then(
      (added) => {
        if (isMounted) handle = added;
        else void added.remove().catch(() => undefined);
      },
      () => undefined,
    );
    return () => {
      isMounted = false;
      void handle?.remove().catch(() => undefined);
    };
  }, []);
}
