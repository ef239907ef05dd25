/**
 * The value of variable `name` a child started with `env` gets on Windows, where names have no case. An object
 * may hold several case-variants of one name (`{ ...process.env, PATH: … }` keeps the inherited `Path` too), and
 * Node's spawn passes only the first of them in sorted key order, leaving the variable out when that key's value
 * is undefined; every lookup reads that same key, so what Rennet reads is what the child sees. Empty = unset. Pure.
 */
export function windowsEnvValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const wanted = name.toUpperCase();
  let kept: string | undefined;
  for (const key of Object.keys(env)) {
    if (key.toUpperCase() === wanted && (kept === undefined || key < kept)) kept = key;
  }
  return kept === undefined ? undefined : env[kept] || undefined;
}
