/** The shipped declarations (`dist/**\/*.d.ts`, built by `npm test`) carry no member marked `@internal`. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

function declarations(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return declarations(file);
    return file.endsWith(".d.ts") ? [file] : [];
  });
}

describe("public declarations", () => {
  it("strip every @internal member (stripInternal), e.g. CodexSessionClient.startInternal", () => {
    const files = declarations(path.join(REPO_ROOT, "dist"));
    expect(files.length).toBeGreaterThan(50);
    const leaks = files.filter((file) => /@internal|startInternal/.test(readFileSync(file, "utf8")));
    expect(leaks.map((file) => path.relative(REPO_ROOT, file))).toEqual([]);
    const client = readFileSync(path.join(REPO_ROOT, "dist/codex/client/session-client.d.ts"), "utf8");
    expect(client).toContain("runStreamed(");
  });
});
