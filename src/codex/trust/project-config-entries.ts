/**
 * A repository's `.codex/config.toml` that exists but is not a regular file (a FIFO, a device, a symlink to one,
 * a symlink loop) must not reach codex. Codex 0.87–0.135 read it when they start, whatever the project's trust
 * and before answering `initialize`: a FIFO keeps codex waiting until the `initialize` deadline, a symlink to
 * `/dev/zero` has codex allocate memory until the machine runs out (measured: over 2 GB within 2 s, 10 GB within
 * 11 s on 0.120). Codex 0.171 refuses such a file ("is not a file"), so no version runs a turn there. Rennet
 * looks for one before starting anything in a directory: in the cwd and every ancestor, symlink-resolved and as
 * written (a superset of what codex reads), except the user's own CODEX_HOME. It only `stat`s them; it opens none.
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { RennetError } from "../../errors.js";
import { trustDirectories } from "./trust-directories.js";

/**
 * Rejects with a `RennetError` `PROJECT_CONFIG_NOT_A_FILE` (`details.files`) when `cwd` or an ancestor has a
 * `.codex/config.toml` other than `codexHome`'s whose `stat` says it is not a regular file or that loops. A
 * missing file, a dangling symlink or one that cannot be looked at (permissions) does not count.
 */
export async function assertProjectConfigsAreFiles(cwd: string, codexHome: string): Promise<void> {
  const found: string[] = [];
  let own: Promise<string> | null = null;
  const dotCodexes = trustDirectories(cwd).map((directory) => path.join(directory, ".codex"));
  // the stats run at once: this walk precedes every start of codex
  const suspect = await Promise.all(
    dotCodexes.map((dotCodex) => notAFile(path.join(dotCodex, "config.toml"))),
  );
  for (const [index, dotCodex] of dotCodexes.entries()) {
    if (suspect[index] !== true) continue;
    own ??= realpath(codexHome).catch(() => path.resolve(codexHome));
    if ((await realpath(dotCodex).catch(() => dotCodex)) === (await own)) continue;
    found.push(path.join(dotCodex, "config.toml"));
  }
  if (found.length === 0) return;
  throw new RennetError(
    "PROJECT_CONFIG_NOT_A_FILE",
    `not a regular file: ${found.join(", ")}. Codex reads a project's .codex/config.toml whatever its trust, and ` +
      "such a file (a FIFO, a device, a symlink to one, a symlink loop) keeps it from starting or has it read " +
      "without end, so nothing was started in this directory. Remove or replace the file, or run elsewhere.",
    { details: { files: found } },
  );
}

async function notAFile(file: string): Promise<boolean> {
  try {
    return !(await stat(file)).isFile();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ELOOP";
  }
}
