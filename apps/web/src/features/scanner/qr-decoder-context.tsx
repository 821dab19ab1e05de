/**
 * Which QR decoder the scanner uses. The app uses the zxing-wasm decoder of `@/lib/qr` (loaded on
 * first use, so its glue code and .wasm stay out of the first page load); tests provide their own
 * `QrDecoder` through `QrDecoderProvider`.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';

/** Creates a decoder; called at most once per scanner screen, when the camera first starts. */
export type QrDecoderFactory = () => Promise<QrDecoder>;

async function createAppQrDecoder(): Promise<QrDecoder> {
  const { createQrDecoder } = await import('@/lib/qr/create-qr-decoder.ts');
  return createQrDecoder();
}

const QrDecoderFactoryContext = createContext<QrDecoderFactory>(createAppQrDecoder);

/** Replaces the decoder for everything below it (tests, or another engine). */
export function QrDecoderProvider({ createDecoder, children }: { createDecoder: QrDecoderFactory; children: ReactNode }) {
  return <QrDecoderFactoryContext value={createDecoder}>{children}</QrDecoderFactoryContext>;
}

/** The decoder factory in effect. */
export function useQrDecoderFactory(): QrDecoderFactory {
  return useContext(QrDecoderFactoryContext);
}
