# One image for the API (with the dashboard) and the runner.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY frontend/package.json frontend/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# a larger young generation for the API and the runner (as `npm start`; measured in BENCHMARKS.md, issue 16)
ENV NODE_OPTIONS=--max-semi-space-size=64
COPY --from=build /app /app
VOLUME /data
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
