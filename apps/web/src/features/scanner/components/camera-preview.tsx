import type { RefObject } from 'react';
import type { ScanPreview } from '@/lib/scan-source/scan-source.ts';
import { useTranslation } from 'react-i18next';

/**
 * What goes into `CameraPanel`'s preview slot for a camera source (SEAMS §1): the `<video>` the web
 * camera draws into, or — for a native camera that renders behind the WebView — an empty, transparent
 * area the picture shows through.
 */
export function CameraPreview({ kind, videoRef }: { kind: ScanPreview; videoRef: RefObject<HTMLVideoElement | null> }) {
  const { t } = useTranslation();
  if (kind === 'video-element') return <video ref={videoRef} aria-label={t('scanner.cameraPreview')} className="size-full object-cover" muted playsInline />;
  return <div role="img" aria-label={t('scanner.cameraPreview')} className="size-full" />;
}
