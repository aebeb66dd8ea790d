# syntax=docker/dockerfile:1
# Build stage: compiles TypeScript and the re2 native addon.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# npm ci runs `prepare` (npm run build): tsc, then scripts/build.mjs bundles dist/main.js with esbuild.
COPY scripts/build.mjs ./scripts/build.mjs
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: only the compiled server, production dependencies and the default config.
FROM node:20-bookworm-slim
LABEL org.opencontainers.image.title="mcp-sandboxed-filesystem" \
      org.opencontainers.image.description="Sandboxed file and folder tools for LLM agents over MCP (the mcp-filesystem command)"
ENV NODE_ENV=production \
    MCP_FS_HOST=0.0.0.0 \
    MCP_FS_PORT=8091
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY config ./config
COPY docker/mcp-filesystem.docker.yaml ./config/docker.yaml
RUN mkdir -p /data/workspace && chown -R node:node /data
USER node
EXPOSE 8091
VOLUME ["/data/workspace"]
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8091/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
ENTRYPOINT ["node", "dist/main.js"]
CMD ["--config", "config/docker.yaml"]
