/**
 * The admin screen's three files. They are plain files (no build step), kept in public/ beside this
 * module's source; the compiled service (dist/modules/…) reads them from the source tree, since the
 * TypeScript build copies no assets (the Dockerfile copies public/ into the image beside dist/). They
 * are read on first use, not at start: an installation that left them out still serves the api, and
 * /admin says what is missing.
 */
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { AppError } from '../../../src/errors/app-error';

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

/** `<root>/modules/support/admin-screen/public`, from the source module or its compiled copy under `<root>/dist`. */
export function publicDirectory(moduleDir = __dirname): string {
  const compiled = `${sep}dist${sep}modules${sep}`;
  const sourceDir = moduleDir.includes(compiled) ? moduleDir.replace(compiled, `${sep}modules${sep}`) : moduleDir;
  return join(sourceDir, 'public');
}

export class AdminAssets {
  private readonly loaded = new Map<AdminAssetName, AdminAsset>();

  constructor(private readonly directory = publicDirectory()) {}

  get(name: AdminAssetName): AdminAsset {
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = { contentType: FILES[name], body: this.read(name) };
      this.loaded.set(name, asset);
    }
    return asset;
  }

  private read(name: AdminAssetName): Buffer {
    const path = join(this.directory, name);
    try {
      return readFileSync(path);
    } catch {
      throw new AppError('unavailable', 'ADMIN.SCREEN_MISSING', `The admin screen's file ${path} is missing from this installation`);
    }
  }
}
