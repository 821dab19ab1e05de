# Gatecheck: the web app and the API in one image (docs/deployment.md).
# NOT BUILT HERE: the machines this was written on have no Docker engine. Build and try it before
# relying on it: docker build -t gatecheck . &&
#   docker run -p 127.0.0.1:8080:8080 -e CORS_ORIGINS=none -v gatecheck-data:/data gatecheck
# (a venue's settings: no demo data, CORS origins named by the operator; docs/decisions/086)

# --- build: install with the lockfile and build the web app (the README's `npm ci && npm start`, split) ---
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
RUN npm ci
COPY . .
RUN npm run build -w @gatecheck/web

# --- runtime: non-root, data in /data ---
FROM node:24-bookworm-slim AS runtime
# HOST=0.0.0.0: the container's own interfaces, so a published port reaches it; publish it on
# 127.0.0.1 behind a reverse proxy (docs/deployment.md).
ENV NODE_ENV=production \
    DEPLOYMENT=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    LOG_FORMAT=json
WORKDIR /app
# The server runs TypeScript through tsx (a devDependency), so the whole node_modules is kept.
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
WORKDIR /app/apps/server
# What `npm start -w @gatecheck/server` runs (tsx src/server.ts), without npm in between, so SIGTERM
# reaches the server itself and it drains gracefully.
CMD ["node", "--import", "tsx", "src/server.ts"]
