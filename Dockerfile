# Idem api / worker / sandbox image (one image, the command picks the process; see docker-compose.yml).
FROM node:20.19-bookworm-slim AS build
WORKDIR /app
# swagger-ui-dist's dependency @scarf/scarf reports installs unless told not to (package.json's allowScripts keeps it off locally).
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY modules ./modules
COPY projections ./projections
RUN npm run build && npm prune --omit=dev

FROM node:20.19-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The admin screen's plain files are served from beside their source module (admin-assets.ts).
COPY --from=build /app/modules/support/admin-screen/public ./modules/support/admin-screen/public
# The sandbox's state directory (docker-compose.yml mounts a volume here, which takes this owner at its first mount).
RUN mkdir -p /var/lib/idem-sandbox && chown node:node /var/lib/idem-sandbox
USER node
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
