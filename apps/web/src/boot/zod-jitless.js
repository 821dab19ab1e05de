// Tells zod never to generate code, before any module of the app runs: part of the boot script
// (./boot.ts), which runs from index.html's <head> before every module script. zod reads its
// configuration from globalThis.__zod_globalConfig. Why: src/config/zod-jitless.ts; why here:
// docs/decisions/048 (code splitting lets modules that build schemas run before main.tsx's first import).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
