/**
 * The main agent's checklist, kept from Claude Code's plan tools so that each change becomes one `plan.updated`
 * carrying the whole list. Two tool families exist: `TodoWrite` (up to 2.1.112 by default; it sends the whole
 * list) and `TaskCreate`/`TaskUpdate`/`TaskList` (2.1.332 with older models or `CLAUDE_CODE_ENABLE_TODO_TOOLS`;
 * one task at a time). Statuses are reported in the harness vocabulary (`pending`, `inProgress`, `completed`;
 * any other kept as sent). Never throws.
 *
 * Claude keeps the Task* list with the thread, so a turn that resumes a thread in a fresh child can update a
 * task an earlier turn created. The last list of each thread is kept in this process (the most recent
 * {@link KEPT_THREADS} threads), and a tracker built for a resumed thread starts from it: its first
 * `plan.updated` is the whole list as Claude now holds it. A thread last run in another process starts empty.
 */
import type { EventBody, PlanStep } from "../harness/events.js";
import { isRecord } from "../json-record.js";

type Json = Record<string, unknown>;

interface Entry {
  /** The task id of the Task* family; null for TodoWrite entries. */
  id: string | null;
  step: string;
  status: string;
}

const STATUS: ReadonlyMap<string, string> = new Map([
  ["pending", "pending"],
  ["in_progress", "inProgress"],
  ["completed", "completed"],
]);

function status(value: unknown): string {
  if (typeof value !== "string") return "pending";
  return STATUS.get(value) ?? value;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function idOf(value: unknown): string | null {
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

/** How many threads' last lists this process keeps for the turns that resume them. */
const KEPT_THREADS = 64;
const lastLists = new Map<string, Entry[]>();

function keep(thread: string, entries: Entry[]): void {
  lastLists.delete(thread);
  lastLists.set(thread, entries);
  for (const oldest of lastLists.keys()) {
    if (lastLists.size <= KEPT_THREADS) break;
    lastLists.delete(oldest);
  }
}

export class PlanTracker {
  #entries: Entry[];

  /** `resumes`: the session id (lower case) of the thread the turn resumes, whose list is the start; else null. */
  constructor(resumes: string | null = null) {
    this.#entries = (resumes === null ? undefined : lastLists.get(resumes)) ?? [];
  }

  /**
   * The `plan.updated` body after a successful plan tool call (`input` its input, `toolUseResult` Claude's view
   * of its result), or null when the call did not change the list (a read, an unknown task, an odd shape).
   * `thread`: the turn's session id, under which the list is kept for a later turn that resumes it.
   */
  update(
    toolName: string,
    input: unknown,
    toolUseResult: unknown,
    thread: string | null = null,
  ): EventBody | null {
    const given: Json = isRecord(input) ? input : {};
    const view: Json = isRecord(toolUseResult) ? toolUseResult : {};
    const before = JSON.stringify(this.#entries);
    switch (toolName) {
      case "TodoWrite":
        this.#todoWrite(Array.isArray(view.newTodos) ? view.newTodos : given.todos);
        break;
      case "TaskCreate":
        this.#taskCreate(given, view);
        break;
      case "TaskUpdate":
        this.#taskUpdate(given, view);
        break;
      case "TaskList":
        this.#taskList(view.tasks);
        break;
      default:
        return null;
    }
    if (JSON.stringify(this.#entries) === before) return null;
    if (thread !== null) keep(thread, this.#entries);
    const steps: PlanStep[] = this.#entries.map((entry) => ({ step: entry.step, status: entry.status }));
    return {
      type: "plan.updated",
      steps,
      explanation: null,
      native: { tool: toolName, input, toolUseResult },
    };
  }

  #todoWrite(todos: unknown): void {
    if (!Array.isArray(todos)) return;
    this.#entries = todos.flatMap((todo) =>
      isRecord(todo) && str(todo.content) !== null
        ? [{ id: null, step: todo.content as string, status: status(todo.status) }]
        : [],
    );
  }

  #taskCreate(given: Json, view: Json): void {
    const task = isRecord(view.task) ? view.task : {};
    const step = str(task.subject) ?? str(given.subject);
    if (step === null) return;
    const entry: Entry = { id: idOf(task.id), step, status: "pending" };
    const index = entry.id === null ? -1 : this.#entries.findIndex((e) => e.id === entry.id);
    // A task id names one task of Claude's list: a create under an id already listed replaces that task.
    this.#entries =
      index === -1 ? [...this.#entries, entry] : this.#entries.map((e, i) => (i === index ? entry : e));
  }

  #taskUpdate(given: Json, view: Json): void {
    const id = idOf(given.taskId) ?? idOf(view.taskId);
    const index = id === null ? -1 : this.#entries.findIndex((entry) => entry.id === id);
    if (index === -1) return;
    const change = isRecord(view.statusChange) ? view.statusChange : {};
    const next = str(given.status) ?? str(change.to);
    if (next === "deleted") {
      this.#entries = this.#entries.filter((_, i) => i !== index);
      return;
    }
    const entry = this.#entries[index] as Entry;
    const updated = {
      ...entry,
      step: str(given.subject) ?? entry.step,
      status: next === null ? entry.status : status(next),
    };
    this.#entries = this.#entries.map((e, i) => (i === index ? updated : e));
  }

  #taskList(tasks: unknown): void {
    if (!Array.isArray(tasks)) return;
    this.#entries = tasks.flatMap((task) =>
      isRecord(task) && str(task.subject) !== null
        ? [{ id: idOf(task.id), step: task.subject as string, status: status(task.status) }]
        : [],
    );
  }
}
