import type * as FsPromises from "node:fs/promises";

/**
 * `node:fs/promises` on a file system that stopped answering (a hard-mounted share whose server went away): every
 * call of `mkdir`, `stat`, `lstat`, `readdir`, `writeFile`, `rename` and `rm` whose path contains `marker` never
 * settles, and `onStall` hears of each. For `vi.mock("node:fs/promises", …)` (or `node:fs`'s `promises`).
 */
export function stalledFsPromises(
  fs: typeof FsPromises,
  marker: string,
  onStall: () => void = () => {},
): typeof FsPromises & { default: typeof FsPromises } {
  const stall =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (!String(args[0]).includes(marker)) return call(...args);
      onStall();
      return new Promise<R>(() => {});
    };
  const stalled = {
    ...fs,
    mkdir: stall(fs.mkdir),
    stat: stall(fs.stat),
    lstat: stall(fs.lstat),
    readdir: stall(fs.readdir),
    writeFile: stall(fs.writeFile),
    rename: stall(fs.rename),
    rm: stall(fs.rm),
  } as typeof FsPromises;
  return { ...stalled, default: stalled };
}
