import { lstat, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirectories } from "../src/make-directories.js";
import { tempDir } from "./helpers/temp.js";

/** `promise`, or a rejection naming `what` when it has not settled within two seconds. */
function settling<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within 2 s`)), 2_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe("makeDirectories", () => {
  it("creates every missing directory with the mode, and resolves when the directory exists", async () => {
    const root = await tempDir("mkdirs");
    const dir = path.join(root, "a", "b", "c");
    await makeDirectories(dir, 0o700);
    for (const made of [path.join(root, "a"), path.join(root, "a", "b"), dir]) {
      const info = await stat(made);
      expect(info.isDirectory()).toBe(true);
      if (process.platform !== "win32") expect(info.mode & 0o777).toBe(0o700);
    }
    await expect(makeDirectories(dir, 0o700)).resolves.toBeUndefined();
  });

  it("rejects with ENOTDIR when a component is a file", async () => {
    const root = await tempDir("mkdirs");
    await writeFile(path.join(root, "file"), "");
    await expect(makeDirectories(path.join(root, "file", "x"))).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it.runIf(process.platform === "linux")(
    "rejects under /proc, where a directory with an existing parent is ENOENT, instead of looping",
    async () => {
      await expect(lstat("/proc")).resolves.toBeTruthy();
      const attempt = settling(makeDirectories("/proc/rennet-no-such-dir/state", 0o700), "makeDirectories");
      await expect(attempt).rejects.toMatchObject({ code: "ENOENT" });
    },
  );
});
