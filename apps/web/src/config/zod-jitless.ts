/**
 * Tells zod never to generate code (issue 15 item 17). By default zod 4 probes `new Function('')`
 * when it builds its first object schema, to decide whether it may compile fast parsers. Our
 * Content-Security-Policy forbids eval (script-src 'self' 'wasm-unsafe-eval', docs/decisions/011),
 * so the probe fails harmlessly but the browser reports a CSP violation on every page load, which
 * buries real violations. With `jitless` zod skips the probe and parses by interpretation (the
 * API's answers are small; the difference does not show).
 *
 * Must run before any schema is built: `main.tsx` imports this module first, ahead of the contract
 * and `env.ts`, which build schemas as they load. In the production build that order is not kept
 * (code splitting puts zod and modules that build schemas in a chunk the entry imports, which runs
 * first), so the boot script in index.html's `<head>` (src/boot/boot.ts, with src/boot/zod-jitless.js)
 * sets the same option on zod's global configuration before any module runs (docs/decisions/048, 099). This module
 * keeps it for the dev server and the tests.
 */
import { z } from 'zod/mini';

z.config({ jitless: true });
