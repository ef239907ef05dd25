import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { npmNativeLaunchBehind, usableExplicitCodex } from "../../src/codex/launch/explicit-codex.js";

const TRIPLE = "x86_64-unknown-linux-musl";

describe.skipIf(process.platform === "win32")("an explicit path to npm's launcher", () => {
  let dir: string;
  let packageRoot: string;
  let launcher: string;
  let native: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "rennet-explicit-"));
    const modules = path.join(dir, "lib", "node_modules");
    packageRoot = path.join(modules, "@openai", "codex");
    await mkdir(path.join(packageRoot, "bin"), { recursive: true });
    await writeFile(path.join(packageRoot, "bin", "codex.js"), "#!/usr/bin/env node\n", { mode: 0o755 });
    native = path.join(modules, "@openai", "codex-linux-x64", "vendor", TRIPLE, "bin", "codex");
    await mkdir(path.dirname(native), { recursive: true });
    await writeFile(native, "#!/bin/sh\n", { mode: 0o755 });
    launcher = path.join(dir, "bin", "codex");
    await mkdir(path.dirname(launcher));
    await symlink(path.join(packageRoot, "bin", "codex.js"), launcher);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("launches the native binary the launcher would start, with the launcher's variables", async () => {
    expect(await npmNativeLaunchBehind(launcher, "linux", "x64")).toEqual({
      type: "native",
      command: native,
      env: { CODEX_MANAGED_PACKAGE_ROOT: packageRoot, CODEX_MANAGED_BY_NPM: "1" },
    });
    // the resolved codex keeps the path as given: it is what the user named, in reports and errors
    expect(await usableExplicitCodex(launcher, "linux")).toMatchObject({
      path: launcher,
      source: "explicit",
      launch: { type: "native", command: process.arch === "x64" ? native : launcher },
    });
  });

  it("launches the script as given when the native binary is missing or not executable", async () => {
    await chmod(native, 0o644);
    expect(await npmNativeLaunchBehind(launcher, "linux", "x64")).toBeNull();
    await rm(native);
    expect(await npmNativeLaunchBehind(launcher, "linux", "x64")).toBeNull();
    expect((await usableExplicitCodex(launcher, "linux")).launch).toEqual({
      type: "native",
      command: launcher,
    });
  });

  it("keeps a launcher that puts the package's bundled tools on PATH (codex 0.133–0.137)", async () => {
    await writeFile(
      path.join(packageRoot, "bin", "codex.js"),
      '#!/usr/bin/env node\nconst pathDir = path.join(packageRoot, "codex-path");\n',
    );
    expect(await npmNativeLaunchBehind(launcher, "linux", "x64")).toBeNull();
  });

  it("launches anything that is not npm's launcher as given", async () => {
    const other = path.join(dir, "lib", "node_modules", "@other", "codex", "bin", "codex.js");
    await mkdir(path.dirname(other), { recursive: true });
    await writeFile(other, "#!/usr/bin/env node\n", { mode: 0o755 });
    expect(await npmNativeLaunchBehind(other, "linux", "x64")).toBeNull();
    expect(await npmNativeLaunchBehind(native, "linux", "x64")).toBeNull();
    expect(await npmNativeLaunchBehind(path.join(dir, "missing"), "linux", "x64")).toBeNull();
    // createCodex({codex}) takes the same path: the launcher is skipped there too
    const resolved = await createCodex({ codex: launcher }).resolveCodex();
    expect(resolved.launch).toEqual(
      process.arch === "x64" && process.platform === "linux"
        ? { type: "native", command: native, env: expect.any(Object) as unknown }
        : { type: "native", command: launcher },
    );
  });
});

describe.skipIf(process.platform === "win32")("an explicit path that cannot be a codex", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "rennet-explicit-unusable-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names what is wrong: missing, a broken link, a directory, not a regular file, not executable", async () => {
    const broken = path.join(dir, "broken");
    await symlink(path.join(dir, "nowhere"), broken);
    const plain = path.join(dir, "plain");
    await writeFile(plain, "#!/bin/sh\n", { mode: 0o644 });
    const cases: [string, string][] = [
      [path.join(dir, "missing"), "not found"],
      [broken, "not found"],
      [dir, "is a directory"],
      ["/dev/null", "is not a regular file"],
      [plain, "is not executable (no execute permission for this user)"],
    ];
    for (const [file, problem] of cases) {
      await expect(usableExplicitCodex(file, "linux"), file).rejects.toMatchObject({
        code: "CODEX_UNAVAILABLE",
        message: expect.stringContaining(
          `Codex is unavailable: ${file}: ${problem}. Pass the path`,
        ) as unknown,
      });
    }
    await chmod(plain, 0o755);
    expect((await usableExplicitCodex(plain, "linux")).launch).toEqual({ type: "native", command: plain });
  });

  it("a bare name is the executable of the client's PATH, never one a relative entry (the repository) holds", async () => {
    const repo = path.join(dir, "repo");
    const installed = path.join(dir, "installed");
    for (const where of [repo, installed]) {
      await mkdir(where);
      await writeFile(path.join(where, "codex"), "#!/bin/sh\n", { mode: 0o755 });
    }
    const before = process.cwd();
    process.chdir(repo);
    try {
      const env = { PATH: `.:${installed}` };
      expect(await usableExplicitCodex("codex", "linux", env)).toMatchObject({
        path: path.join(installed, "codex"),
        launch: { type: "native", command: path.join(installed, "codex") },
      });
      // the client passes its env: the child's PATH is the one searched
      expect((await createCodex({ codex: "codex", env }).resolveCodex()).path).toBe(
        path.join(installed, "codex"),
      );
      await expect(usableExplicitCodex("codex", "linux", { PATH: "." })).rejects.toMatchObject({
        code: "CODEX_UNAVAILABLE",
        message: expect.stringContaining(
          "Codex is unavailable: codex: not found in any absolute PATH directory (relative PATH entries are not searched)",
        ) as unknown,
      });
    } finally {
      process.chdir(before);
    }
  });
});
