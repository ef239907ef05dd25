/**
 * The Claude Code client's door for deferred loads: importing the package loads nothing behind it (the turn
 * runner, a turn's preparation with the process machinery, which Claude Code runs, discovery, a turn's protocol half); a client's
 * first session does. Everything behind the door imports statically.
 */
import { lazyModule } from "../../load-module.js";
import type * as Prepare from "./prepare-claude-turn.js";
import type * as Resolver from "./resolve-claude.js";
import type * as Discovery from "../discovery/discover-claude.js";
import type * as TurnProtocol from "../turn/claude-turn-protocol.js";
import type * as TurnRunner from "../turn/claude-turn-runner.js";

/** The turn runner: loaded with a client's first session (see `DeferredSession`). */
export const loadClaudeTurnRunner = lazyModule<typeof TurnRunner>(
  new URL("../turn/claude-turn-runner.js", import.meta.url),
  () => import("../turn/claude-turn-runner.js"),
);

/** What a turn does between the call and the spawn (the launch spec, the bypass check, the images). */
export const loadClaudePrepare = lazyModule<typeof Prepare>(
  new URL("./prepare-claude-turn.js", import.meta.url),
  () => import("./prepare-claude-turn.js"),
);

/** Which Claude Code runs: the explicit path's check, or discovery. */
export const loadClaudeResolver = lazyModule<typeof Resolver>(
  new URL("./resolve-claude.js", import.meta.url),
  () => import("./resolve-claude.js"),
);

/** Discovery of the user's claude: loaded only when no explicit path was given. */
export const loadClaudeDiscovery = lazyModule<typeof Discovery>(
  new URL("../discovery/discover-claude.js", import.meta.url),
  () => import("../discovery/discover-claude.js"),
);

/** The protocol half of a turn (mapper, app loop, app tools): loaded once the first child is spawned. */
export const loadClaudeTurnProtocol = lazyModule<typeof TurnProtocol>(
  new URL("../turn/claude-turn-protocol.js", import.meta.url),
  () => import("../turn/claude-turn-protocol.js"),
);
