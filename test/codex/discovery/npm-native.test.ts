import { describe, expect, it } from "vitest";
import {
  npmCodexPackageRoot,
  npmManagedEnv,
  npmNativeBinaryCandidates,
} from "../../../src/codex/launch/npm-native.js";

describe("npm-native launch (pure)", () => {
  it("recognizes only npm's launcher script by its real path", () => {
    expect(npmCodexPackageRoot("/g/lib/node_modules/@openai/codex/bin/codex.js", "linux")).toBe(
      "/g/lib/node_modules/@openai/codex",
    );
    expect(npmCodexPackageRoot("/g/lib/node_modules/@other/codex/bin/codex.js", "linux")).toBeNull();
    expect(npmCodexPackageRoot("/g/lib/node_modules/@openai/codex/bin/other.js", "linux")).toBeNull();
    expect(npmCodexPackageRoot("/usr/local/bin/codex", "darwin")).toBeNull();
    expect(npmCodexPackageRoot("C:\\n\\node_modules\\@openai\\codex\\bin\\codex.js", "win32")).toBeNull();
  });

  it("looks where the launcher looks: nested platform package, hoisted ones up the tree, then vendor/", () => {
    const root = "/p/node_modules/@openai/codex";
    const bin = "vendor/x86_64-unknown-linux-musl/bin/codex";
    expect(npmNativeBinaryCandidates(root, "linux", "x64")).toEqual([
      `${root}/node_modules/@openai/codex-linux-x64/${bin}`,
      `/p/node_modules/@openai/codex-linux-x64/${bin}`,
      `/node_modules/@openai/codex-linux-x64/${bin}`,
      `${root}/${bin}`,
    ]);
    expect(npmNativeBinaryCandidates(root, "darwin", "arm64")[0]).toBe(
      `${root}/node_modules/@openai/codex-darwin-arm64/vendor/aarch64-apple-darwin/bin/codex`,
    );
    expect(npmNativeBinaryCandidates(root, "freebsd", "x64")).toEqual([]);
  });

  it("sets the variables the launcher gives the binary", () => {
    expect(npmManagedEnv("/r")).toEqual({ CODEX_MANAGED_PACKAGE_ROOT: "/r", CODEX_MANAGED_BY_NPM: "1" });
  });
});
