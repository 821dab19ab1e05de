/**
 * The status bar stays readable whatever the app's theme (issue 9 item 4): a solid slate-900 bar
 * (Android) under light text (`Style.Dark` = light text for dark backgrounds), the WebView below it,
 * not under it. iOS has no bar colour: the light text sits on the app's header. Also set at launch
 * by capacitor.config.json (plugins.StatusBar) before any JavaScript runs.
 */
import { isNativePlatform } from './platform.ts';

/** The status bar's background on Android (Tailwind slate-900). */
export const STATUS_BAR_COLOR = '#0f172a';

/** Applies the bar's style on native; nothing in a browser. Never rejects (iOS rejects the colour). */
export async function setUpStatusBar(): Promise<void> {
  if (!isNativePlatform()) return;
  // On demand: a browser never loads the plugin (docs/decisions/082).
  const plugin = await import('@capacitor/status-bar').catch(() => null);
  if (plugin === null) return;
  const { StatusBar, Style } = plugin;
  await StatusBar.setStyle({ style: Style.Dark }).catch(() => undefined);
  await StatusBar.setOverlaysWebView({ overlay: false }).catch(() => undefined);
  await StatusBar.setBackgroundColor({ color: STATUS_BAR_COLOR }).catch(() => undefined);
}
