/**
 * The OpenAPI 3.1 document of the API, generated from the routes' contract schemas (zod, through
 * fastify-type-provider-zod's `jsonSchemaTransform`): the UI at `/api/docs`, the JSON at
 * `/api/docs/json`. It collects routes as they are registered, so register it before the routes.
 * Only `/api` routes are documented (not the web app's static files).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Where the Swagger UI is served; the document is at `${OPENAPI_DOCS_PATH}/json`. */
const OPENAPI_DOCS_PATH = `${API_PREFIX}/docs`;

/** Routes that need no session (logout works without one too). */
const PUBLIC_URLS: readonly string[] = [
  apiPaths.login,
  apiPaths.logout,
  apiPaths.register,
  apiPaths.forgotPassword,
  apiPaths.resetPassword,
].map((pathname) => `${API_PREFIX}${pathname}`);

async function openapiPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatecheck API',
        description:
          'Ticket scanning for event staff. Web clients authenticate with the HttpOnly session cookie set by ' +
          'POST /api/auth/login with useCookie; native clients send `Authorization: Bearer <token>`. ' +
          'Every error is `{ code, message }`.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bearerToken: { type: 'http', scheme: 'bearer' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gatecheck_session' },
        },
      },
    },
    transform: (document) => {
      const isApiRoute = document.url.startsWith(`${API_PREFIX}/`) && !document.url.startsWith(OPENAPI_DOCS_PATH);
      if (!isApiRoute) return { schema: { hide: true }, url: document.url };
      const transformed = jsonSchemaTransform(document);
      const resource = document.url.slice(API_PREFIX.length + 1).split('/')[0] ?? '';
      const isPublic = PUBLIC_URLS.includes(document.url);
      return {
        ...transformed,
        schema: { ...transformed.schema, tags: [resource], ...(isPublic ? {} : { security: [{ bearerToken: [] }, { sessionCookie: [] }] }) },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: OPENAPI_DOCS_PATH,
    // No call-outs to swagger.io's validator: the page works offline.
    uiConfig: { validatorUrl: null },
  });
}

/** Registers the OpenAPI document and its UI; see the module comment. */
export default fp(openapiPlugin, { name: 'openapi' });
