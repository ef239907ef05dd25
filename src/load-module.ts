import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const requireModule = createRequire(import.meta.url);

/**
 * Loads the ES module at `url` (write `new URL("./x.js", import.meta.url)`). Where Node can load it synchronously
 * (`require` of an ES module: Node ≥ 20.19 / 22.12, no top-level await) it does, which skips the asynchronous
 * loader's per-module cost on the CLI's start path (about 40% of the load time of a turn's modules); anywhere
 * else (an older Node, a test runner serving the TypeScript sources) it falls back to `import()`.
 */
export async function loadModule<T>(url: URL): Promise<T> {
  try {
    return requireModule(fileURLToPath(url)) as T;
  } catch {
    // not loadable by require here: import() loads it, or reports the module's own error
    return (await import(url.href)) as T;
  }
}
