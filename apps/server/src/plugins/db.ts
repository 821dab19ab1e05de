/**
 * Makes the open database available to routes as `app.db`. The caller of buildApp owns the handle
 * and closes it after the app (see server.ts), so in-flight requests finish before the pool closes.
 * A route with `config.databaseDeadlineMs` runs, from its first hook on (the sign-in's session
 * lookup included), under that deadline for its statements on PostgreSQL (db/pg-pool.ts
 * `withDatabaseDeadline`, docs/decisions/103): past it, the request is answered 503 instead of
 * waiting for a database that does not answer.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { withDatabaseDeadline } from '../db/pg-pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
  interface FastifyContextConfig {
    /** ms from the request's arrival within which its database statements must be answered. */
    databaseDeadlineMs?: number;
  }
}

async function dbPlugin(app: FastifyInstance, options: { db: Db }): Promise<void> {
  app.decorate('db', options.db);
  // Before every other onRequest hook but the security headers', so the deadline covers them too.
  app.addHook('onRequest', (request, _reply, done) => {
    const deadlineMs = request.routeOptions.config.databaseDeadlineMs;
    if (deadlineMs === undefined) done();
    else void withDatabaseDeadline(deadlineMs, () => done());
  });
}

export default fp(dbPlugin, { name: 'db' });
