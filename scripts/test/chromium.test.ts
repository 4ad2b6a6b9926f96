import { describe, expect, it } from 'vitest';
import { ensureChromium, type realSystem } from '../chromium.mjs';

type System = typeof realSystem;

/** A machine with these executables; `install` lists what an install command would add. */
function machine(options: {
  env?: Record<string, string>;
  files?: string[];
  isRoot?: boolean;
  platform?: NodeJS.Platform;
  installs?: Record<string, string>;
}) {
  const files = new Set(options.files ?? []);
  const commands: string[] = [];
  const logs: string[] = [];
  const system: System = {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    isRoot: options.isRoot ?? false,
    executable: (file) => files.has(file),
    which: (name) => [`/usr/bin/${name}`].find((file) => files.has(file)),
    playwrightChromium: () => '/cache/ms-playwright/chrome',
    run: (command, args) => {
      const line = [command.endsWith('node') ? 'node' : command, ...args].join(' ');
      commands.push(line);
      const added = options.installs?.[line];
      if (added) files.add(added);
      return added !== 'fail';
    },
    playwrightCli: () => '/pw/cli.js',
    log: (line) => {
      logs.push(line);
    },
  };
  return { system, commands, logs };
}

describe('ensureChromium', () => {
  it('takes CHROMIUM_PATH first, and says so in one line when it is not executable', () => {
    const ok = machine({
      env: { CHROMIUM_PATH: '/opt/chrome' },
      files: ['/opt/chrome', '/usr/bin/chromium'],
    });
    expect(ensureChromium(ok.system)).toEqual({ path: '/opt/chrome' });
    const bad = machine({ env: { CHROMIUM_PATH: '/nope' }, files: ['/usr/bin/chromium'] });
    expect(ensureChromium(bad.system)).toEqual({
      error: expect.stringMatching(/^CHROMIUM_PATH=\/nope is not an executable/),
    });
    expect(bad.commands).toEqual([]);
  });

  it("finds the system's Chromium, then Playwright's cached build, without installing", () => {
    const debian = machine({ files: ['/usr/bin/chromium-browser'] });
    expect(ensureChromium(debian.system)).toEqual({ path: '/usr/bin/chromium-browser' });
    const cached = machine({ files: ['/cache/ms-playwright/chrome'] });
    expect(ensureChromium(cached.system)).toEqual({ path: '/cache/ms-playwright/chrome' });
    expect([...debian.commands, ...cached.commands]).toEqual([]);
  });

  it("installs Debian's package with apt-get as root", () => {
    const { system, commands, logs } = machine({
      isRoot: true,
      files: ['/usr/bin/apt-get'],
      installs: {
        'apt-get install -y -qq --no-install-recommends --no-upgrade chromium': '/usr/bin/chromium',
      },
    });
    expect(ensureChromium(system)).toEqual({ path: '/usr/bin/chromium' });
    expect(commands).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends --no-upgrade chromium',
    ]);
    // Said before anything runs, naming the exact command and how to avoid it.
    expect(logs).toEqual([
      expect.stringContaining(
        'about to run, as root: apt-get update, then apt-get install -y -qq --no-install-recommends --no-upgrade chromium',
      ),
    ]);
    expect(logs[0]).toContain('CHROMIUM_PATH');
  });

  it("installs Playwright's build when not root (or without apt-get)", () => {
    const { system, commands } = machine({
      installs: { 'node /pw/cli.js install chromium': '/cache/ms-playwright/chrome' },
    });
    expect(ensureChromium(system)).toEqual({ path: '/cache/ms-playwright/chrome' });
    expect(commands).toEqual(['node /pw/cli.js install chromium']);
  });

  it('fails with one clear line when the install fails', () => {
    const { system } = machine({ installs: { 'node /pw/cli.js install chromium': 'fail' } });
    const result = ensureChromium(system);
    expect(result).toEqual({ error: expect.stringMatching(/^no Chromium for the browser tests/) });
    expect('error' in result && result.error.includes('\n')).toBe(false);
  });
});
