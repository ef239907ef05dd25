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
