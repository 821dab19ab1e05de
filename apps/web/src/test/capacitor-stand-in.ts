/**
 * The native half of Capacitor's Android bridge, played in the page (issue 9 tests): `window.androidBridge`
 * receives each plugin call as `postMessage(JSON)` from Capacitor's real `native-bridge.js` (the file the
 * Android shell injects into its WebView), and this stand-in answers through `Capacitor.fromNative`,
 * exactly as the Java side does. `window.Capacitor.PluginHeaders` lists the plugins and their methods,
 * so `@capacitor/core`'s `registerPlugin` routes every call of the plugins' real JS to the bridge.
 *
 * Used by Vitest (`installAndroidBridge()` of android-bridge.ts, before any
 * `@capacitor/*` module loads) and by Playwright (`page.addInitScript(installCapacitorStandIn, …)`
 * then the bridge file). The function is self-contained (no imports, no outer variables) so that
 * Playwright can serialise it into the page.
 *
 * What the stand-in plays:
 * - Preferences: get/set/remove/keys/clear kept in `localStorage` under `prefsPrefix` (so a reload
 *   of the page, the "restart of the app", keeps them, as a device does); all fail with `preferencesFail`.
 * - BarcodeScanner: permission state `camera` ('granted' | 'denied' | 'prompt'); `requestPermissions`
 *   turns 'prompt' into `cameraOnRequest`; startScan/stopScan/torch/openSettings are recorded;
 *   `scan` (the ready-made scanner) answers `scanResult`, or is closed without a code.
 * - Filesystem: the app's own files (writeFile/appendFile/readFile/deleteFile/readdir/rename/stat/mkdir/rmdir),
 *   kept in `localStorage` under 'standin-files:' + directory + ':' + path, so they outlive a reload
 *   and the deletion of the page's IndexedDB (what the OS may clear: the WebView's storage). Data is
 *   kept as sent: UTF-8 text, or base64 when no `encoding` was given (appended parts join as sent).
 *   With `filesFail`, writeFile and appendFile fail (a full disk).
 * - Share: `share` answers as the person's choice in the share sheet, `shareOutcome`: an app took it
 *   (default), the sheet was closed ('Share canceled', the plugin's words), or it failed.
 * - Haptics, App, KeepAwake, StatusBar, SplashScreen: recorded, answered with `{}` (or the plain result).
 * - Listeners (`addListener`): kept per plugin and event; `emit(plugin, event, data)` calls them the
 *   way the native side does (same callback id, `save: true`).
 * Every call is logged in `calls` (`{ pluginId, methodName, options }`), for assertions.
 */

/** Serialisable options of the stand-in. */
export interface CapacitorStandInOptions {
  /** Camera permission the plugin reports first. */
  camera: 'granted' | 'denied' | 'prompt';
  /** What a permission request turns 'prompt' into. */
  cameraOnRequest: 'granted' | 'denied';
  /** Whether the camera has a torch. */
  torch: boolean;
  /** Whether `startScan` fails (a camera in use by another app, a broken camera). */
  startScanFails: boolean;
  /** Whether every Preferences call fails (a broken device store). */
  preferencesFail: boolean;
  /** localStorage prefix of the Preferences stand-in. */
  prefsPrefix: string;
  /** What ML Kit's ready-made scanner (`scan`) reads next; absent: the person closes it ('scan canceled.'). */
  scanResult?: string;
  /** Whether Filesystem's writeFile and appendFile fail (a full disk). */
  filesFail?: boolean;
  /** What the share sheet ends in; absent: 'shared'. */
  shareOutcome?: 'shared' | 'canceled' | 'fails';
}

/** One plugin call as the bridge posted it. */
export interface StandInCall {
  pluginId: string;
  methodName: string;
  options: Record<string, unknown>;
}

/** What the stand-in exposes on `window.capacitorStandIn`. */
export interface CapacitorStandIn {
  calls: StandInCall[];
  options: CapacitorStandInOptions;
  /** Sends a plugin event to the page's listeners of it; returns how many listeners got it. */
  emit(pluginId: string, eventName: string, data: unknown): number;
  /** How many listeners are registered for the event now. */
  listenerCount(pluginId: string, eventName: string): number;
}

/**
 * The plugins of apps/web's package.json, each with the methods its own Android class declares
 * (`@PluginMethod` in node_modules/<plugin>/android; `npm run native:check` fails when a plugin
 * update changes them). The bridge also lists the methods every plugin inherits from Capacitor's
 * `Plugin` class: the stand-in adds those to each plugin's header itself.
 */
export const STAND_IN_PLUGINS = {
  Preferences: ['configure', 'get', 'set', 'remove', 'keys', 'clear', 'migrate', 'removeOld'],
  BarcodeScanner: [
    'startScan',
    'stopScan',
    'readBarcodesFromImage',
    'scan',
    'isSupported',
    'enableTorch',
    'disableTorch',
    'toggleTorch',
    'isTorchEnabled',
    'isTorchAvailable',
    'setZoomRatio',
    'getZoomRatio',
    'getMinZoomRatio',
    'getMaxZoomRatio',
    'openSettings',
    'isGoogleBarcodeScannerModuleAvailable',
    'installGoogleBarcodeScannerModule',
    'requestPermissions',
  ],
  Filesystem: ['readFile', 'readFileInChunks', 'writeFile', 'appendFile', 'deleteFile', 'mkdir', 'rmdir', 'readdir', 'getUri', 'stat', 'rename', 'copy', 'downloadFile', 'checkPermissions', 'requestPermissions'],
  Haptics: ['impact', 'notification', 'vibrate', 'selectionStart', 'selectionChanged', 'selectionEnd'],
  App: ['exitApp', 'getInfo', 'getState', 'getLaunchUrl', 'minimizeApp', 'toggleBackButtonHandler', 'getAppLanguage'],
  KeepAwake: ['keepAwake', 'allowSleep', 'isSupported', 'isKeptAwake'],
  StatusBar: ['setStyle', 'setBackgroundColor', 'show', 'hide', 'getInfo', 'setOverlaysWebView'],
  SplashScreen: ['show', 'hide'],
  Share: ['canShare', 'share'],
} as const;

/**
 * Installs the stand-in on `win` (default `globalThis`: the page's window, or jsdom's global in
 * Vitest) and returns it. Playwright passes only the first argument.
 * Must run before Capacitor's native-bridge.js and before any `@capacitor/*` module.
 */
export function installCapacitorStandIn(
  { options, plugins }: { options: CapacitorStandInOptions; plugins: Record<string, readonly string[]> },
  win: typeof globalThis = globalThis,
): CapacitorStandIn {
  type Listener = { callbackId: string; eventName: string };
  type Message = { callbackId: string; pluginId: string; methodName: string; options: Record<string, unknown> };
  type Result = { callbackId: string; pluginId: string; methodName: string; success: boolean; save?: boolean; data?: unknown; error?: { message: string } };
  const target = win as unknown as Record<string, unknown> & {
    Capacitor: { fromNative(result: Result): void };
    localStorage: Storage;
    setTimeout: typeof setTimeout;
  };
  const listeners = new Map<string, Listener[]>();
  const calls: StandInCall[] = [];

  const reply = (message: Message, result: { data?: unknown; error?: string; save?: boolean }) => {
    // Answers arrive later, like the native side's: never within the call.
    target.setTimeout(() => {
      target.Capacitor.fromNative({
        callbackId: message.callbackId,
        pluginId: message.pluginId,
        methodName: message.methodName,
        success: result.error === undefined,
        save: result.save,
        ...(result.error === undefined ? { data: result.data ?? {} } : { error: { message: result.error } }),
      });
    }, 0);
  };

  const prefKey = (key: unknown) => `${options.prefsPrefix}${String(key)}`;
  const answer = (message: Message): { data?: unknown; error?: string } => {
    const { pluginId, methodName, options: args } = message;
    const store = target.localStorage;
    if (pluginId === 'Preferences') {
      if (options.preferencesFail) return { error: 'Preferences are unavailable.' };
      if (methodName === 'get') return { data: { value: store.getItem(prefKey(args.key)) } };
      if (methodName === 'set') {
        store.setItem(prefKey(args.key), String(args.value));
        return {};
      }
      if (methodName === 'remove') {
        store.removeItem(prefKey(args.key));
        return {};
      }
      if (methodName === 'keys') {
        const keys: string[] = [];
        for (let index = 0; index < store.length; index += 1) {
          const key = store.key(index);
          if (key?.startsWith(options.prefsPrefix)) keys.push(key.slice(options.prefsPrefix.length));
        }
        return { data: { keys } };
      }
      return {};
    }
    if (pluginId === 'Filesystem') {
      const fileKey = (path: unknown, directory: unknown) => `standin-files:${String(directory)}:${String(path).replace(/^\/+/, '')}`;
      const key = fileKey(args.path, args.directory);
      if ((methodName === 'writeFile' || methodName === 'appendFile') && options.filesFail) return { error: 'No space left on device.' };
      if (methodName === 'writeFile') {
        store.setItem(key, String(args.data));
        return { data: { uri: `file:///${key}` } };
      }
      if (methodName === 'appendFile') {
        store.setItem(key, (store.getItem(key) ?? '') + String(args.data));
        return {};
      }
      if (methodName === 'readFile') {
        const data = store.getItem(key);
        return data === null ? { error: 'File does not exist.' } : { data: { data } };
      }
      if (methodName === 'deleteFile') {
        if (store.getItem(key) === null) return { error: 'File does not exist.' };
        store.removeItem(key);
        return {};
      }
      if (methodName === 'rename') {
        const from = fileKey(args.from, args.directory);
        const data = store.getItem(from);
        if (data === null) return { error: 'File does not exist.' };
        store.setItem(fileKey(args.to, args.toDirectory ?? args.directory), data);
        store.removeItem(from);
        return {};
      }
      if (methodName === 'readdir' || methodName === 'stat') {
        const folder = `${key.replace(/\/+$/, '')}/`;
        const files: { name: string; type: 'file'; size: number; ctime: number; mtime: number; uri: string }[] = [];
        for (let index = 0; index < store.length; index += 1) {
          const stored = store.key(index);
          if (stored?.startsWith(folder) && !stored.slice(folder.length).includes('/')) {
            files.push({ name: stored.slice(folder.length), type: 'file', size: (store.getItem(stored) ?? '').length, ctime: 0, mtime: 0, uri: `file:///${stored}` });
          }
        }
        if (methodName === 'stat') {
          const data = store.getItem(key);
          if (data !== null) return { data: { name: String(args.path), type: 'file', size: data.length, ctime: 0, mtime: 0, uri: `file:///${key}` } };
          return files.length > 0 ? { data: { name: String(args.path), type: 'directory', size: 0, ctime: 0, mtime: 0, uri: `file:///${key}` } } : { error: 'File does not exist.' };
        }
        return files.length > 0 ? { data: { files } } : { error: 'Folder does not exist.' };
      }
      return {};
    }
    if (pluginId === 'BarcodeScanner') {
      if (methodName === 'checkPermissions') return { data: { camera: options.camera } };
      if (methodName === 'requestPermissions') {
        if (options.camera === 'prompt') options.camera = options.cameraOnRequest;
        return { data: { camera: options.camera } };
      }
      if (methodName === 'startScan' && (options.startScanFails || options.camera !== 'granted')) return { error: 'The camera could not be started.' };
      if (methodName === 'isTorchAvailable') return { data: { available: options.torch } };
      if (methodName === 'isGoogleBarcodeScannerModuleAvailable') return { data: { available: true } };
      if (methodName === 'scan') {
        const text = options.scanResult;
        return text === undefined ? { error: 'scan canceled.' } : { data: { barcodes: [{ rawValue: text, displayValue: text, format: 'QR_CODE', valueType: 'URL' }] } };
      }
      if ((methodName === 'enableTorch' || methodName === 'disableTorch') && !options.torch) return { error: 'No torch.' };
      return {};
    }
    if (pluginId === 'Share') {
      if (methodName === 'canShare') return { data: { value: true } };
      if (methodName === 'share' && options.shareOutcome === 'canceled') return { error: 'Share canceled' };
      if (methodName === 'share' && options.shareOutcome === 'fails') return { error: 'Error sharing item' };
      if (methodName === 'share') return { data: { activityType: 'com.google.android.apps.docs' } };
      return {};
    }
    if (pluginId === 'KeepAwake' && methodName === 'isSupported') return { data: { isSupported: true } };
    return {};
  };

  target.androidBridge = {
    postMessage(json: string) {
      const message = JSON.parse(json) as Message & { type?: string };
      if (!message.pluginId) return;
      // The bridge's own console forwarding is not a plugin call.
      if (message.pluginId === 'Console') return;
      calls.push({ pluginId: message.pluginId, methodName: message.methodName, options: message.options });
      const key = `${message.pluginId}:${String(message.options.eventName ?? '')}`;
      if (message.methodName === 'addListener') {
        const list = listeners.get(key) ?? [];
        list.push({ callbackId: message.callbackId, eventName: String(message.options.eventName) });
        listeners.set(key, list);
        // A listener's callback stays registered: answers carry `save: true`; none is sent now.
        return;
      }
      if (message.methodName === 'removeListener') {
        const list = listeners.get(key) ?? [];
        listeners.set(
          key,
          list.filter((listener) => listener.callbackId !== String(message.options.callbackId)),
        );
        reply(message, {});
        return;
      }
      if (message.methodName === 'removeAllListeners') {
        for (const mapKey of [...listeners.keys()]) if (mapKey.startsWith(`${message.pluginId}:`)) listeners.delete(mapKey);
        reply(message, {});
        return;
      }
      reply(message, answer(message));
    },
  };

  // As the bridge's header lists them: the plugin's own methods and those of Capacitor's `Plugin`
  // class (@PluginMethod in com/getcapacitor/Plugin.java; `npm run native:check` compares both).
  const methodsOf = (names: readonly string[]) =>
    [...new Set([...names, 'removeListener', 'removeAllListeners', 'checkPermissions', 'requestPermissions'])]
      .map((name) => ({ name, rtype: 'promise' }))
      .concat([{ name: 'addListener', rtype: 'callback' }]);
  target.Capacitor = {
    PluginHeaders: Object.entries(plugins).map(([name, methods]) => ({ name, methods: methodsOf(methods) })),
  } as unknown as typeof target.Capacitor;

  const standIn: CapacitorStandIn = {
    calls,
    options,
    emit(pluginId, eventName, data) {
      const list = listeners.get(`${pluginId}:${eventName}`) ?? [];
      for (const listener of list) {
        target.Capacitor.fromNative({ callbackId: listener.callbackId, pluginId, methodName: 'addListener', success: true, save: true, data });
      }
      return list.length;
    },
    listenerCount(pluginId, eventName) {
      return (listeners.get(`${pluginId}:${eventName}`) ?? []).length;
    },
  };
  target.capacitorStandIn = standIn;
  return standIn;
}
