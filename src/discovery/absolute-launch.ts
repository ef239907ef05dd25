import { absoluteCommand, isBareCommand } from "./command-path.js";
import type { ExecutableLaunch } from "./executable-launch.js";
import { unsearchableDirReason } from "./platform-env.js";

/**
 * A hand-built launch whose files are the same whatever directory the child starts in: each path that is
 * relative in both POSIX and Windows syntax (`bin/agent`, `./node`) resolved against the process's current
 * directory, as a path given as a string is ({@link absoluteCommand}); bare names, absolute paths of either
 * syntax and the argv inside WSL kept as given. `launch` itself when nothing changes.
 */
export function absoluteLaunch<L extends ExecutableLaunch>(launch: L): L {
  const fix = (file: string): string =>
    isBareCommand(file) ||
    unsearchableDirReason(file, "linux") === null ||
    unsearchableDirReason(file, "win32") === null
      ? file
      : absoluteCommand(file);
  switch (launch.type) {
    case "native":
      return fix(launch.command) === launch.command ? launch : { ...launch, command: fix(launch.command) };
    case "node-launcher": {
      const node = fix(launch.node);
      const script = fix(launch.script);
      return node === launch.node && script === launch.script ? launch : { ...launch, node, script };
    }
    case "windows-cmd":
      return fix(launch.shim) === launch.shim ? launch : { ...launch, shim: fix(launch.shim) };
    case "wsl":
      return fix(launch.wslExe) === launch.wslExe ? launch : { ...launch, wslExe: fix(launch.wslExe) };
    default:
      return launch;
  }
}
