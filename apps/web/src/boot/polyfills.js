// Fallbacks for the web APIs the app uses that are newer than its browser floor (Android System
// WebView / Chrome 99, iOS / Safari 15.5: docs/decisions/090). Part of the boot script (./boot.ts) in
// index.html's <head>, so it runs before every module of the app, whatever order code splitting gives them (as zod-jitless.js,
// docs/decisions/048). Each is installed only where the browser lacks it; each behaves as the
// standard says for what the app does with it (eslint.config.js lists them as supplied):
// - URL.canParse(url, base?): true when `new URL(url, base)` would not throw (Chrome 120, Safari 17).
// - AbortSignal.timeout(ms): a signal aborted after `ms` with a 'TimeoutError' DOMException
//   (Chrome 103, Safari 16).
// - AbortSignal.any(signals): a signal aborted, with the same reason, as soon as one of `signals` is
//   (Chrome 116, Safari 17.4).
// - String.prototype.isWellFormed(): false when the string holds a lone UTF-16 surrogate (Chrome
//   111, Safari 16.4); the contract's request-text check (packages/contract/src/text.ts) calls it.
(function installFallbacks() {
  'use strict';

  if (typeof String.prototype.isWellFormed !== 'function') {
    // A high surrogate not followed by a low one, or a low one not preceded by a high one.
    var loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    Object.defineProperty(String.prototype, 'isWellFormed', {
      configurable: true,
      writable: true,
      value: function isWellFormed() {
        if (this === null || this === undefined) throw new TypeError('String.prototype.isWellFormed called on null or undefined');
        return !loneSurrogate.test(String(this));
      },
    });
  }

  if (typeof URL === 'function' && typeof URL.canParse !== 'function') {
    Object.defineProperty(URL, 'canParse', {
      configurable: true,
      writable: true,
      value: function canParse(url, base) {
        try {
          new URL(url, base);
          return true;
        } catch {
          return false;
        }
      },
    });
  }

  if (typeof AbortController !== 'function' || typeof AbortSignal !== 'function') return;

  if (typeof AbortSignal.timeout !== 'function') {
    Object.defineProperty(AbortSignal, 'timeout', {
      configurable: true,
      writable: true,
      value: function timeout(milliseconds) {
        var controller = new AbortController();
        setTimeout(function abortOnTimeout() {
          controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
        }, milliseconds);
        return controller.signal;
      },
    });
  }

  if (typeof AbortSignal.any !== 'function') {
    Object.defineProperty(AbortSignal, 'any', {
      configurable: true,
      writable: true,
      value: function any(signals) {
        var controller = new AbortController();
        var list = Array.from(signals);
        function onAbort(event) {
          list.forEach(function removeListener(signal) {
            signal.removeEventListener('abort', onAbort);
          });
          controller.abort(event.target.reason);
        }
        for (var index = 0; index < list.length; index += 1) {
          if (list[index].aborted) {
            controller.abort(list[index].reason);
            return controller.signal;
          }
        }
        list.forEach(function addListener(signal) {
          signal.addEventListener('abort', onAbort);
        });
        return controller.signal;
      },
    });
  }
})();
