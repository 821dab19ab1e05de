/**
 * Builds the Gatecheck HTTP app from plugins and routes (no listening; see server.ts). The API lives
 * under `/api` (contract `API_PREFIX`); the built web app, when present, is served at `/`.
 */
import type { Writable } from 'node:stream';
import { API_PREFIX } from '@gatecheck/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import authPlugin from './plugins/auth.ts';
import dbPlugin from './plugins/db.ts';
import errorsPlugin from './plugins/errors.ts';
import mailerPlugin from './plugins/mailer.ts';
import openapiPlugin from './plugins/openapi.ts';
import securityPlugin from './plugins/security.ts';
import textInputPlugin from './plugins/text-input.ts';
import webPlugin from './plugins/web.ts';
import accountRoutes from './routes/account/index.ts';
import authRoutes from './routes/auth/index.ts';
import organizationsRoutes from './routes/organizations/index.ts';
import resetPasswordPageRoutes from './routes/reset-password/index.ts';
import ticketsRoutes from './routes/tickets/index.ts';
import usersRoutes from './routes/users/index.ts';

/** Largest request body accepted, in bytes (64 KiB); bigger bodies get 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** What buildApp needs: the configuration and an open database (the caller closes it). */
export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Where log lines (JSON, one per line) go; default stdout. Tests capture them here. */
  logStream?: Writable;
}

/**
 * How a request appears in the log: method, path, host and client address. The query string is left
 * out: it can carry secrets (the password-reset link's `?token=…`), and logs are kept and shared.
 */
function requestLogValue(request: FastifyRequest): { method: string; url: string; host: string; remoteAddress: string } {
  return { method: request.method, url: request.url.split('?')[0] ?? '', host: request.host, remoteAddress: request.ip };
}

/**
 * Creates the Fastify app with every plugin and route registered (not yet listening).
 * Use `app.inject` in tests or `app.listen` to serve; `app.close()` does not close the database.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, serializers: { req: requestLogValue }, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // While stopping, a request that still reaches us on an open connection is finished like any
    // other (server.ts answers it with Connection: close) rather than refused with Fastify's own 503
    // body, which is not our { code, message } and would cost the gate a retry.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // The API speaks JSON only: without Fastify's text/plain parser, other bodies get 415.
  app.removeContentTypeParser('text/plain');

  await app.register(errorsPlugin);
  await app.register(textInputPlugin);
  await app.register(dbPlugin, { db });
  await app.register(authPlugin);
  await app.register(mailerPlugin);
  // Both hook into route registration (rate limits, the OpenAPI document): before any route.
  await app.register(securityPlugin);
  await app.register(openapiPlugin);
  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(accountRoutes);
      await api.register(usersRoutes);
      await api.register(organizationsRoutes);
      await api.register(ticketsRoutes);
    },
    { prefix: API_PREFIX },
  );
  // The mailed reset link's page: a route of its own, so the web app's SPA fallback never sees it.
  await app.register(resetPasswordPageRoutes);
  await app.register(webPlugin, { webDistDir: config.webDistDir });
  return app;
}
