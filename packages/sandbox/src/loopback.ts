/**
 * Whether a listen address keeps a server on this machine. Exactly `127.0.0.1`, `::1` and
 * `localhost`: other 127.0.0.0/8 addresses are loopback to the kernel, but a container or a proxy
 * may forward them, and a HOST chosen by hand to be something else is a sign that other machines
 * are meant to reach it. Anything else (`0.0.0.0`, `::`, a LAN or public address) is not.
 */
export function isLoopbackHost(host: string): boolean {
  const normal = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return normal === '127.0.0.1' || normal === '::1' || normal === 'localhost';
}

/** The reason the admin API closes, or undefined when `host` is loopback or a token guards it. */
export function adminExposure(host: string, adminToken: string | undefined): string | undefined {
  if (adminToken !== undefined || isLoopbackHost(host)) return undefined;
  return `it listens on ${host}, beyond loopback (127.0.0.1, ::1, localhost), without an admin token`;
}
