import { readFileSync } from "node:fs";

/** The version in the package's own package.json (one level above both `src` and `dist`). */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}
