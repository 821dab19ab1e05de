// Before the first paint: which prerendered element of index.html shows, in which language and theme
// (<html data-boot>, lang, class dark). The rules and why: docs/decisions/082, src/app/prerendered-page.ts.
(function () {
  var html = document.documentElement;
  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }
  function parsed(text) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  // src/lib/device-settings.ts: `deviceSettings`, else its older keys; src/lib/i18n: else the device's languages.
  var settings = parsed(stored('deviceSettings')) || {};
  var language = settings.language !== undefined ? settings.language : stored('gatecheck.language');
  var theme = settings.theme !== undefined ? settings.theme : parsed(stored('gatecheck.theme'));
  if (language !== 'en' && language !== 'de') language = null;
  var languages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (var i = 0; language === null && i < languages.length; i += 1) {
    var primary = String(languages[i] || '').toLowerCase().split('-')[0];
    if (primary === 'en' || primary === 'de') language = primary;
  }
  html.lang = language || 'en';
  // src/lib/theme.ts
  var isDark = theme === 'dark' || (theme !== 'light' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  if (isDark) html.classList.add('dark');
  html.style.colorScheme = isDark ? 'dark' : 'light';
  // SPEC §2: '/' is /login; done before the paint so that the sign-in form can be what is painted.
  if (location.pathname === '/') history.replaceState(history.state, '', '/login' + location.search + location.hash);
  // The prerendered form only where the app renders exactly it: a browser (not Capacitor's shell, whose
  // form asks for a server) at /login with no stored user; otherwise the guard's 'Loading...'.
  var isNative = Boolean(window.androidBridge || (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.bridge));
  html.setAttribute('data-boot', !isNative && stored('user') === null && location.pathname === '/login' ? 'sign-in' : 'loading');
})();
