/**
 * Which camera `ScanSource` the scanner screen uses (SEAMS §1). The app uses `chooseCameraSource`
 * (the device's camera); screen tests provide a scripted source through `CameraSourceProvider` and
 * drive it, instead of patching the browser's camera.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { ScanSource } from '@/lib/scan-source/scan-source.ts';
import { chooseCameraSource } from './choose-camera-source.ts';
import type { QrDecoderFactory } from './qr-decoder-context.tsx';

/** Creates the camera source of one scanner screen; `createDecoder` is the decoder in effect. */
export type CameraSourceFactory = (createDecoder: QrDecoderFactory) => ScanSource;

const CameraSourceFactoryContext = createContext<CameraSourceFactory>(chooseCameraSource);

/** Replaces the camera source for everything below it (tests). */
export function CameraSourceProvider({ createSource, children }: { createSource: CameraSourceFactory; children: ReactNode }) {
  return <CameraSourceFactoryContext value={createSource}>{children}</CameraSourceFactoryContext>;
}

/** The camera source factory in effect. */
export function useCameraSourceFactory(): CameraSourceFactory {
  return useContext(CameraSourceFactoryContext);
}
