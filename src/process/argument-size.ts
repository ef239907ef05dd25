/**
 * Why a start failed with `E2BIG`: which argument or environment entry is too long for the kernel, or how large
 * they are together. Pure.
 */
import { printableText } from "../printable-text.js";
import type { LaunchSpec } from "./stdio-child.js";

/** Linux's `MAX_ARG_STRLEN`: the most bytes one argument or one `NAME=value` entry takes, its NUL included. */
const MAX_ARGUMENT_STRING_BYTES = 131_072;

/** How much of an over-long argument the message quotes. */
const QUOTED_CHARS = 40;

/**
 * The hint for `E2BIG` on `spec`: the first argument (numbered from 1) or environment variable whose bytes,
 * with the NUL that ends them, pass {@link MAX_ARGUMENT_STRING_BYTES}, quoting the argument's start so that the
 * option it carries can be told; else the total size of the arguments and the environment, over the system's
 * `ARG_MAX`. `perString`: the system has Linux's per-entry limit.
 */
export function oversizeArgumentHint(spec: LaunchSpec, perString = process.platform === "linux"): string {
  const limit = `over the ${MAX_ARGUMENT_STRING_BYTES}-byte limit Linux puts on one argument or environment entry`;
  let total = Buffer.byteLength(spec.command) + 1;
  for (const [index, arg] of spec.args.entries()) {
    const bytes = Buffer.byteLength(arg);
    total += bytes + 1;
    if (perString && bytes + 1 > MAX_ARGUMENT_STRING_BYTES) {
      const start = printableText(arg.slice(0, QUOTED_CHARS), QUOTED_CHARS * 6);
      return `argument ${index + 1} (${start}…) is ${bytes} bytes, ${limit}: shorten the value it carries`;
    }
  }
  for (const [name, value] of Object.entries(spec.env ?? process.env)) {
    if (value === undefined) continue;
    const bytes = Buffer.byteLength(`${name}=${value}`);
    total += bytes + 1;
    if (perString && bytes + 1 > MAX_ARGUMENT_STRING_BYTES)
      return `the environment variable ${printableText(name, 200)} is ${bytes} bytes, ${limit}: shorten or unset it`;
  }
  return `the arguments and environment are ${total} bytes together, over the system's limit (getconf ARG_MAX): shorten them`;
}
