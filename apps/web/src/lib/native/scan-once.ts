/**
 * One QR code read with ML Kit's ready-made full-screen scanner (`BarcodeScanner.scan`: Google's
 * code scanner on Android, the plugin's own view on iOS), for the native app's first screen: the
 * organizer's setup QR code (docs/decisions/116). The door scanner keeps its own camera source
 * (native-camera-source.ts); this one needs no transparent WebView and returns after one code.
 * Loaded on demand: the sign-in screen's first load does not carry the plugin.
 */
import { platformName } from './platform.ts';

/** The text of the code read, or why there is none. */
export type ScanOnceResult =
  | { code: string; problem?: undefined }
  | { code?: undefined; problem: 'cancelled' | 'denied' | 'installing' | 'failed' };

/**
 * Opens the scanner and resolves with the first QR code's text. Never rejects.
 * - 'installing': Android's Google code scanner module is not on the phone yet; its download was
 *   started, so a later try works.
 * - 'denied': iOS camera permission refused; 'cancelled': closed without a code; 'failed': anything else.
 */
export async function scanOneQrCode(): Promise<ScanOnceResult> {
  try {
    const { BarcodeFormat, BarcodeScanner } = await import('@capacitor-mlkit/barcode-scanning');
    if (platformName() === 'android') {
      const { available } = await BarcodeScanner.isGoogleBarcodeScannerModuleAvailable();
      if (!available) {
        await BarcodeScanner.installGoogleBarcodeScannerModule();
        return { problem: 'installing' };
      }
    } else {
      // iOS scans with the app's own camera: ask first, as the door scanner does.
      let { camera } = await BarcodeScanner.checkPermissions();
      if (camera === 'prompt' || camera === 'prompt-with-rationale') ({ camera } = await BarcodeScanner.requestPermissions());
      if (camera !== 'granted' && camera !== 'limited') return { problem: 'denied' };
    }
    const { barcodes } = await BarcodeScanner.scan({ formats: [BarcodeFormat.QrCode] });
    const code = barcodes.find((barcode) => barcode.rawValue)?.rawValue;
    return code ? { code } : { problem: 'cancelled' };
  } catch (error) {
    // The plugin rejects a scan the person closed with 'scan canceled.'
    return /cancel/i.test(error instanceof Error ? error.message : String(error)) ? { problem: 'cancelled' } : { problem: 'failed' };
  }
}
