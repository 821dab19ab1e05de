/**
 * The boot script (docs/decisions/099): the one script that runs from index.html's `<head>` before
 * the first paint, inlined there by the build (apps/web/boot-plugin.ts; the server's
 * Content-Security-Policy allows it by its hash). In this order:
 * 1. fallbacks for APIs newer than the browser floor (./polyfills.js, docs/decisions/090);
 * 2. zod without code generation (./zod-jitless.js, docs/decisions/048);
 * 3. the prerendered page's language, theme and element (./first-paint.ts, docs/decisions/082);
 * 4. the app's module scripts, after the first paint (./app-scripts.ts).
 * Each runs before any module of the app, whatever order code splitting gives them.
 */
import './polyfills.js';
import './zod-jitless.js';
import { startAppScriptsAfterFirstPaint } from './app-scripts.ts';
import { applyFirstPaint } from './first-paint.ts';

applyFirstPaint();
startAppScriptsAfterFirstPaint();
