import { RennetError } from "../errors.js";

/**
 * `NO_PROXY` with `127.0.0.1` and `localhost` added (kept once, in order): agent CLIs send even loopback requests
 * through `HTTP(S)_PROXY` otherwise. Pure.
 */
function withLoopbackHosts(current: string | undefined): string {
  const entries = (current ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const host of ["127.0.0.1", "localhost"]) if (!entries.includes(host)) entries.push(host);
  return entries.join(",");
}

/** `env` with {@link withLoopbackHosts} written to both `NO_PROXY` and `no_proxy`; returns `env`. */
export function withLoopbackNoProxy(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const noProxy = withLoopbackHosts(env.NO_PROXY ?? env.no_proxy);
  env.NO_PROXY = noProxy;
  env.no_proxy = noProxy;
  return env;
}

/** `TESTKIT_OPTIONS_INVALID` naming `option` of `call`. */
export function invalidTestkitOption(call: string, option: string, message: string): RennetError {
  return new RennetError("TESTKIT_OPTIONS_INVALID", `${call}: ${option} ${message}`, { details: { option } });
}

/**
 * Throws `TESTKIT_OPTIONS_INVALID` unless `modelUrl` is an absolute http(s) URL: without one, an agent falls back
 * to its default (remote) API instead of failing.
 */
export function checkModelUrl(call: string, modelUrl: unknown): void {
  let protocol = "";
  try {
    if (typeof modelUrl === "string") protocol = new URL(modelUrl).protocol;
  } catch {
    // not a URL: refused below
  }
  if (protocol !== "http:" && protocol !== "https:")
    throw invalidTestkitOption(
      call,
      "modelUrl",
      `must be an absolute http(s) URL such as the loopback server's url, got ${JSON.stringify(modelUrl) ?? "undefined"}`,
    );
}
