/**
 * The Claude Code client's door for deferred loads: importing the package loads none of the process machinery
 * behind it, nor the protocol half of a turn; a client's first session does.
 */
import { lazyModule } from "../../load-module.js";
import type * as Launcher from "../../process/stdio-launcher.js";
import type * as Reaper from "../../process/reap-orphans.js";
import type * as ChildSession from "../../session/child-session.js";
import type * as Prepare from "./prepare-claude-turn.js";
import type * as Resolver from "./resolve-claude.js";
import type * as Discovery from "../discovery/discover-claude.js";
import type * as TurnProtocol from "../turn/claude-turn-protocol.js";

/** The real spawn of a child (`spawnStdioChild`). */
export const loadClaudeLauncher = lazyModule<typeof Launcher>(
  new URL("../../process/stdio-launcher.js", import.meta.url),
  () => import("../../process/stdio-launcher.js"),
);

/** The reaper of trees left by a Rennet process that died hard. */
export const loadClaudeReaper = lazyModule<typeof Reaper>(
  new URL("../../process/reap-orphans.js", import.meta.url),
  () => import("../../process/reap-orphans.js"),
);

/** The session primitive that owns the child. */
export const loadChildSession = lazyModule<typeof ChildSession>(
  new URL("../../session/child-session.js", import.meta.url),
  () => import("../../session/child-session.js"),
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
