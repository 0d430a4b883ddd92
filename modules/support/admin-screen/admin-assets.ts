/**
 * The admin screen's three files, read once at start. They are plain files (no build step), kept in
 * public/ beside this module's source; the compiled service (dist/modules/…) reads them from the
 * source tree, since the TypeScript build copies no assets.
 */
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

export interface AdminAsset {
  contentType: string;
  body: Buffer;
}

const FILES = {
  'admin.html': 'text/html; charset=utf-8',
  'admin.js': 'text/javascript; charset=utf-8',
  'admin.css': 'text/css; charset=utf-8',
} as const;

export type AdminAssetName = keyof typeof FILES;

export function publicDirectory(moduleDir = __dirname): string {
  const compiled = `${sep}dist${sep}modules${sep}`;
  const sourceDir = moduleDir.includes(compiled) ? moduleDir.replace(compiled, `${sep}modules${sep}`) : moduleDir;
  return join(sourceDir, 'public');
}

export function loadAdminAssets(directory = publicDirectory()): Record<AdminAssetName, AdminAsset> {
  const entries = Object.entries(FILES).map(([name, contentType]) => [name, { contentType, body: readFileSync(join(directory, name)) }]);
  return Object.fromEntries(entries) as Record<AdminAssetName, AdminAsset>;
}
