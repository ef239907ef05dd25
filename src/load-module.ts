import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const requireModule = createRequire(import.meta.url);

/**
 * Loads the ES module at `url` (write `new URL("./x.js", import.meta.url)`), for code that loads a part of the
 * package only when it is used. Where Node can load it synchronously (`require` of an ES module: Node ≥ 20.19 /
 * 22.12, no top-level await) it does, which skips the asynchronous loader's per-module cost (about 40% of the
 * load time of a turn's modules on Node 20); anywhere else (an older Node, a test runner serving the TypeScript
 * sources, a bundle) `load` imports it: pass `() => import("./x.js")` with the same literal path, which bundlers
 * follow.
 */
export async function loadModule<T>(url: URL, load: () => Promise<T>): Promise<T> {
  try {
    return requireModule(fileURLToPath(url)) as T;
  } catch {
    // not loadable by require here: the import loads it, or reports the module's own error
    return await load();
  }
}

/**
 * A package (or a `node:` builtin) by name, loaded synchronously where it is first needed: for a CommonJS
 * dependency that costs load time on paths that do not use it (schemasafe, picocolors, `node:crypto`).
 */
export function requirePackage<T>(name: string): T {
  return requireModule(name) as T;
}

/** {@link loadModule} once: the returned function loads the module on its first call and then returns that load. */
export function lazyModule<T>(url: URL, load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= loadModule(url, load);
    return loaded;
  };
}
