/**
 * Makes the open database available to routes as `app.db`. The caller of buildApp owns the handle
 * and closes it after the app (see server.ts), so in-flight requests finish before the pool closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

async function dbPlugin(app: FastifyInstance, options: { db: Db }): Promise<void> {
  app.decorate('db', options.db);
}

export default fp(dbPlugin, { name: 'db' });
