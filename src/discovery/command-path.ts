import { pathApi, unsearchableDirReason } from "./platform-env.js";

/** Whether `command` is a bare name (`agent`), which a spawn looks up on PATH, rather than a path. Pure. */
export function isBareCommand(command: string): boolean {
  return !command.includes("/") && !command.includes("\\");
}

/**
 * A command as a spawn in any directory would find the same file: a relative path resolved against `base` (the
 * process's current directory); a bare name and an absolute path kept as given. Pure.
 */
export function absoluteCommand(
  command: string,
  platform: NodeJS.Platform = process.platform,
  base: string = process.cwd(),
): string {
  if (isBareCommand(command) || unsearchableDirReason(command, platform) === null) return command;
  return pathApi(platform).resolve(base, command);
}
