/**
 * Finds a Chromium for the browser tests, installing one when there is none: CHROMIUM_PATH, then
 * the system's (Debian's `chromium` and its usual names), then Playwright's browser cache; else
 * Debian's package through apt-get when running as root, Playwright's browser download elsewhere.
 * Every effect goes through `system`, so the decisions are tested without touching the machine.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** Only what the browser tests need: no recommended packages, no upgrade of chromium if present. */
const APT_INSTALL = ['install', '-y', '-qq', '--no-install-recommends', '--no-upgrade', 'chromium'];
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
const require = createRequire(import.meta.url);

/** @param {string} file */
function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where playwright-core expects its own Chromium build, or undefined when it is not importable. */
function playwrightChromium() {
  try {
    const { chromium } = require('playwright-core');
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** @param {string} command @param {string[]} args */
function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/** The real machine. */
export const realSystem = {
  env: process.env,
  platform: process.platform,
  isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
  executable,
  /** @param {string} name */
  which: (name) =>
    (process.env.PATH ?? '')
      .split(delimiter)
      .map((dir) => join(dir, name))
      .find((file) => executable(file)),
  playwrightChromium,
  run,
  // The package's bin (cli.js) is not in its exports map: find it next to package.json.
  playwrightCli: () => join(dirname(require.resolve('playwright-core/package.json')), 'cli.js'),
  /** @param {string} line @returns {void} */
  log: (line) => {
    process.stderr.write(`${line}\n`);
  },
};

/** @param {typeof realSystem} system */
function locate(system) {
  for (const name of SYSTEM_NAMES) {
    const found = system.which(name);
    if (found) return found;
  }
  const cached = system.playwrightChromium();
  return cached && system.executable(cached) ? cached : undefined;
}

/**
 * @param {typeof realSystem} system
 * @returns {{ path: string } | { error: string }}
 */
export function ensureChromium(system = realSystem) {
  const configured = system.env.CHROMIUM_PATH;
  if (configured) {
    return system.executable(configured)
      ? { path: configured }
      : {
          error: `CHROMIUM_PATH=${configured} is not an executable file; fix it or unset it to let the tests find or install Chromium`,
        };
  }
  const found = locate(system);
  if (found) return { path: found };

  if (system.platform === 'linux' && system.isRoot && system.which('apt-get')) {
    // Said before it happens: this changes the machine. Only chromium and what it depends on, no
    // recommended extras; set CHROMIUM_PATH to use a browser you installed yourself instead.
    system.log(
      `test: no Chromium found for the browser tests; about to run, as root: apt-get update, then apt-get ${APT_INSTALL.join(' ')} (Debian's chromium and only the packages it depends on; set CHROMIUM_PATH to skip this)`,
    );
    if (system.run('apt-get', ['update', '-qq']) && system.run('apt-get', APT_INSTALL)) {
      const installed = locate(system);
      if (installed) return { path: installed };
    }
  } else {
    system.log(
      "test: no Chromium found; installing Playwright's Chromium build (playwright-core install chromium)",
    );
    if (system.run(process.execPath, [system.playwrightCli(), 'install', 'chromium'])) {
      const installed = locate(system);
      if (installed) return { path: installed };
    }
  }
  return {
    error:
      'no Chromium for the browser tests and installing one failed: install Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH to its executable',
  };
}
