# Multi-stage image: build with dev dependencies, run with production ones as a non-root user.
# (No Docker engine on the development machines: this file is kept correct by reading.)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci applies the patches (patch-package) to the installed packages.
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 PGLITE_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# tsx runs scripts/migrate.ts and scripts/db-backup.ts; it is a runtime dependency. pg_dump and
# pg_restore (postgresql-client) make and restore the backups of a PostgreSQL database. Chromium
# prints the proofs of submission (playwright-core drives it: CHROMIUM_PATH), with the Noto fonts
# that shape Arabic and Chinese.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client chromium fonts-noto-core fonts-noto-cjk && rm -rf /var/lib/apt/lists/*
ENV CHROMIUM_PATH=/usr/bin/chromium
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/app ./app
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/tsconfig.json ./
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://localhost:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations, then the server (server.ts applies pending migrations and seeds an empty database at start).
# It runs the background worker too; to scale them apart, run web containers with WORKER=off and
# worker containers with the command `node build/worker.js`.
CMD ["sh", "-c", "npx tsx scripts/migrate.ts && node build/server.js"]
