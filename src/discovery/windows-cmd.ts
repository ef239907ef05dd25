import path from "node:path";
import { RennetError } from "../errors.js";

/** The longest command line `cmd.exe` reads, in characters. */
const CMD_LINE_MAX = 8191;
/** Characters `cmd.exe` interprets; each is escaped with `^`. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** What `child_process.spawn` needs to run a `.cmd` shim with exactly the given arguments. */
export interface WindowsCmdLaunch {
  command: string;
  args: string[];
  windowsVerbatimArguments: true;
}

/**
 * Quotes one argument for a program that parses its command line with the MSVCRT rules (node.exe behind
 * an npm `.cmd` shim): backslashes before a quote and at the end are doubled, quotes are escaped.
 */
export function quoteMsvcrtArgument(arg: string): string {
  const escaped = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  return `"${escaped}"`;
}

/**
 * `cmd.exe` expands `%name%`, `%name:~1,2%` and `%name:a=b%` before it reads any `^`, so a `^` cannot keep a `%`
 * from expanding a variable. Each `%` is followed by `%cd:~,%`, an empty slice of a variable that always exists:
 * the `%` stays and no reference can form around it (needs command extensions: `/e:on`). The shim's `%*` is not
 * expanded again, so once is enough.
 */
function neutralizePercent(escaped: string): string {
  return escaped.replace(/%/g, "%%cd:~,%");
}

/**
 * Escapes one argument for `cmd.exe /d /e:on /v:off /s /c "…"` running a batch shim. Each metacharacter is
 * escaped twice (`^^^"`): once for the `cmd.exe` command line, once more because the shim re-parses its `%*`.
 */
export function escapeCmdShimArgument(arg: string): string {
  return neutralizePercent(quoteMsvcrtArgument(arg).replace(CMD_META, "^$1").replace(CMD_META, "^$1"));
}

/** Escapes the shim's own path for the `cmd.exe` command line (spaces and metacharacters get `^`). */
export function escapeCmdCommand(file: string): string {
  return neutralizePercent(path.win32.normalize(file).replace(CMD_META, "^$1"));
}

/**
 * The spawn for `<cmdFile> <args…>` through `cmd.exe`. Pure. Node refuses to spawn `.cmd` files without a
 * shell (CVE-2024-27980), and `shell: true` would let Node quote arguments with rules `cmd.exe` does not
 * follow; so the command line is built here and passed verbatim. Throws `LAUNCH_ARGUMENT_UNSAFE` for an argument
 * with a line break, which no escape carries through `cmd.exe`, and `LAUNCH_COMMAND_TOO_LONG` for a line longer than
 * `cmd.exe` reads. `/v:off` keeps delayed expansion off whatever
 * the registry's `DelayedExpansion` says: it would expand `!name!` after the `^` escapes were read.
 */
export function windowsCmdLaunch(
  cmdFile: string,
  args: readonly string[],
  comspec = "cmd.exe",
): WindowsCmdLaunch {
  const broken = args.findIndex((arg) => /[\r\n]/.test(arg));
  if (broken >= 0)
    throw new RennetError(
      "LAUNCH_ARGUMENT_UNSAFE",
      `argument ${broken + 1} for ${cmdFile} has a line break, which cmd.exe cannot pass to a .cmd shim (it ends ` +
        "the command line and drops every argument after it): remove the line break, or launch the program's " +
        ".exe instead of the shim",
      { details: { argument: broken } },
    );
  const line = `"${[escapeCmdCommand(cmdFile), ...args.map(escapeCmdShimArgument)].join(" ")}"`;
  if (line.length > CMD_LINE_MAX)
    throw new RennetError(
      "LAUNCH_COMMAND_TOO_LONG",
      `the command line for ${cmdFile} through cmd.exe is ${line.length} characters with its escapes, over the ` +
        `${CMD_LINE_MAX} cmd.exe reads (it would cut the arguments at the end): pass fewer or shorter arguments ` +
        "(an MCP policy's servers and headers), or launch the program's .exe instead of the shim",
      { details: { length: line.length } },
    );
  return {
    command: comspec,
    args: ["/d", "/e:on", "/v:off", "/s", "/c", line],
    windowsVerbatimArguments: true,
  };
}

/** Store-packaged apps (the ChatGPT Microsoft Store package and its execution aliases) are never candidates. */
export function isWindowsStorePath(file: string): boolean {
  return /[\\/]WindowsApps([\\/]|$)/i.test(file);
}
