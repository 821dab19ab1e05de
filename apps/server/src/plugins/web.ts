/**
 * Serves the built web app (WEB_DIST_DIR) at `/` with an SPA fallback: a GET for a path that is not
 * a file answers index.html so deep links such as /scanner load the app. `/api/*` never falls back;
 * unknown API routes (and everything when no web build exists) get a 404 `{ code, message }`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX } from '@gatecheck/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function webPlugin(app: FastifyInstance, options: { webDistDir: string }): Promise<void> {
  const hasWebApp = existsSync(path.join(options.webDistDir, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: options.webDistDir,
      index: 'index.html',
      // Vite names bundles by content hash under assets/: cache them for good; everything else
      // (index.html above all) is revalidated so a new build is picked up at once.
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = path.relative(options.webDistDir, filePath).split(path.sep)[0] === 'assets';
        reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
    if (hasWebApp && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ code: 'not_found', message: 'No such route.' });
  });
}

export default fp(webPlugin, { name: 'web' });
