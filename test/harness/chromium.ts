/**
 * Debian's chromium for the browser specs (playwright-core drives it; nothing downloads a browser
 * build of its own). The machines Idem is built on offer it as a Debian package but do not always
 * have it installed, so where a spec needs it and it is missing, this installs it with apt-get when
 * it can (running as root, apt-get present; IDEM_INSTALL_BROWSER=0 forbids it), as the suite starts
 * its own PostgreSQL and emulator. Otherwise the browser specs skip on a developer's machine, saying
 * so, and fail under CI or IDEM_REQUIRE_BROWSER, where a skipped browser test would pass unseen.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.IDEM_CHROMIUM ?? '/usr/bin/chromium';

/** A missing browser fails the specs here instead of skipping them. */
export const browserRequired = Boolean(process.env.CI || process.env.IDEM_REQUIRE_BROWSER);

const APT_TIMEOUT_MS = 10 * 60_000;

/** The browser's path if it is there or could be installed now, else undefined (with the reason printed). */
export function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const canInstall = process.env.IDEM_INSTALL_BROWSER !== '0' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall && !process.env.IDEM_CHROMIUM) {
    console.warn('chromium is missing: installing Debian’s package (apt-get install -y chromium) for the browser specs');
    const apt = (...args: string[]) =>
      spawnSync('apt-get', args, { stdio: 'inherit', timeout: APT_TIMEOUT_MS, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (apt('update').status === 0) apt('install', '-y', '--no-install-recommends', 'chromium');
    if (existsSync(CHROMIUM)) return CHROMIUM;
  }
  console.warn(`No chromium at ${CHROMIUM} (apt-get install -y chromium, or set IDEM_CHROMIUM): the browser specs cannot run`);
  return undefined;
}
