import os from "node:os";

/**
 * The account's login shell from the password database, or null when it names none or the uid has no entry there
 * (a container started with `--user 1234`, where `os.userInfo()` throws). Never throws.
 */
export function accountShell(): string | null {
  try {
    return os.userInfo().shell || null;
  } catch {
    return null;
  }
}

/**
 * `os.homedir()`, or "" when neither HOME nor the password database gives one (then every known location built
 * from it is relative, and skipped like any relative directory). Never throws.
 */
export function accountHome(): string {
  try {
    return os.homedir();
  } catch {
    return "";
  }
}
