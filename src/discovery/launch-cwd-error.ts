import { RennetError } from "../errors.js";

/** A working directory that cannot be expressed inside the chosen executable's locus (e.g. a drive path for WSL). */
export class LaunchCwdError extends RennetError<"LAUNCH_CWD_UNMAPPABLE"> {
  override readonly name = "LaunchCwdError";
  constructor(
    readonly cwd: string,
    readonly distro: string,
    message: string,
  ) {
    super("LAUNCH_CWD_UNMAPPABLE", message);
  }
}
