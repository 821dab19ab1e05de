// Tells zod never to generate code, before any module of the app runs (a classic script runs
// before every module script). zod reads its configuration from globalThis.__zod_globalConfig.
// Why: src/config/zod-jitless.ts (issue 15 item 17); why here: docs/decisions/048 (code splitting
// lets modules that build schemas run before main.tsx's first import).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
