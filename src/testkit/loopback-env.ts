/**
 * `NO_PROXY` with `127.0.0.1` and `localhost` added (kept once, in order): agent CLIs send even loopback requests
 * through `HTTP(S)_PROXY` otherwise. Pure.
 */
export function withLoopbackHosts(current: string | undefined): string {
  const entries = (current ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const host of ["127.0.0.1", "localhost"]) if (!entries.includes(host)) entries.push(host);
  return entries.join(",");
}
