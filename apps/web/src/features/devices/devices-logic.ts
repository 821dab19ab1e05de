/**
 * The devices page's words as pure functions (docs/decisions/116): a device's state (online,
 * offline, removed), its app, when it was last seen, and the QR code as an image source.
 */
import type { DeviceSummary } from '@gatecheck/contract/devices';
import { formattingLocale, t } from '@/lib/i18n/index.ts';

/** A device's state: removed (revoked), online (seen within DEVICE_ONLINE_WINDOW_MS), or offline. */
export type DeviceState = 'removed' | 'online' | 'offline';

export function deviceState(device: DeviceSummary): DeviceState {
  if (device.revokedAt) return 'removed';
  return device.isOnline ? 'online' : 'offline';
}

/** 'Android 1.5.0', 'iOS', 'Web', or '—' when the device never said. */
export function appWords(device: Pick<DeviceSummary, 'platform' | 'appVersion'>): string {
  const platform = { android: 'Android', ios: 'iOS', web: t('devices.web') }[device.platform ?? ''] ?? device.platform;
  return [platform, device.appVersion].filter(Boolean).join(' ') || '—';
}

/**
 * When `iso` was, as a person reads it at `now`: 'just now' (under a minute), '5 min ago' (under an
 * hour), else day and time ('27 Nov, 14:05'); 'never' for null.
 */
export function seenWords(iso: string | null, now: Date = new Date()): string {
  if (iso === null) return t('devices.never');
  const at = new Date(iso);
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return t('devices.justNow');
  if (minutes < 60) return t('devices.minutesAgo', { count: minutes });
  return at.toLocaleString(formattingLocale('en-GB'), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** The SVG document of a QR code as an `<img>` source: an image runs no script, whatever the text. */
export function svgImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
