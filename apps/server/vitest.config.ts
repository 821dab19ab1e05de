import { defineProject } from 'vitest/config';

/**
 * Server suite: the real app through `app.inject` on a real database — PGlite in memory, or a fresh
 * database per test file on the PostgreSQL server at DATABASE_URL (test/helpers/test-app.ts). The
 * server is built first (test/helpers/build-server.ts) for the tests that start it as a process.
 */
export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The compiled server, for the tests that start it as a process (test/helpers/server-process.ts).
    globalSetup: ['./test/helpers/build-server.ts'],
    // Each test file runs in a fresh worker, and loading these packages' hundreds of ES modules one
    // by one was about 2 s of every server file (245 s of a whole Vitest run). Vitest bundles them
    // once into one file per package (Vite's dependency optimizer): 109 s (docs/decisions/069).
    // Not fastify or pino: their CommonJS `require`s of each other break when bundled this way; not
    // the packages that read their own files at run time (PGlite, pdfkit, argon2, swagger-ui).
    // Every drizzle-orm entry the code imports is listed, so that all share one copy of its classes.
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: ['drizzle-orm', 'drizzle-orm/migrator', 'drizzle-orm/node-postgres', 'drizzle-orm/node-postgres/migrator', 'drizzle-orm/pg-core', 'drizzle-orm/pglite', 'drizzle-orm/pglite/migrator', 'zod', 'date-fns', '@date-fns/tz', 'nodemailer', 'fastify-type-provider-zod', '@fastify/cors', '@fastify/cookie', '@fastify/static', 'prom-client', 'rate-limiter-flexible', 'pg', 'qrcode', 'csv-parse', 'commander', 'fast-check', 'selfsigned', '@faker-js/faker', 'helmet', 'fastify-plugin', 'csv-stringify', '@sindresorhus/transliterate', 'cli-progress'],
        },
      },
    },
  },
});
