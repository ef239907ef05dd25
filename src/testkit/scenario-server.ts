import type { ServerResponse } from "node:http";
import { RennetError } from "../errors.js";
import { invalidTestkitOption } from "./loopback-env.js";
import { isRecord } from "../json-record.js";
import { CountWaiters } from "./count-waiters.js";
import { errorMessage, pathOnly } from "./http-recording.js";
import { LoopbackHttpServer, type PlannedEventStream } from "./loopback-http-server.js";
import type { RecordedRequest } from "./model-response-plan.js";

/** What a loopback model API is made of, besides its scenario. */
export interface ScenarioApi<Plan> {
  /** Names the server in errors, e.g. "loopback model". */
  readonly name: string;
  /** The path of the route the scenario answers (`POST` only; a query is ignored). */
  readonly scenarioPath: string;
  /** The `type`s of the plans it sends (`stream`, `http-error` and any of its own). */
  readonly planTypes: readonly string[];
  /** The JSON body of a 413 answer. */
  tooLarge(message: string): unknown;
  /**
   * Why a streamed event of this `type` cannot be sent, when it belongs to the other loopback API (a scenario
   * built for the wrong server), naming the scenarios to use instead; null when it may be sent.
   */
  foreignEvent(type: string): string | null;
  /** The plan that answers a request whose scenario threw. */
  scenarioThrew(message: string): Plan;
  /** What a waiter gets when the server closes before `awaited` scenario requests came. */
  closedError(awaited: number, received: number): unknown;
  /** Answers a request that is not for the scenario's route. */
  other(request: RecordedRequest, res: ServerResponse): void;
  /** Sends `plan`, the scenario's answer to `request` (`server` streams events). */
  send(
    plan: Plan,
    request: RecordedRequest,
    res: ServerResponse,
    server: ScenarioServer<Plan>,
  ): Promise<void>;
}

/** `scenario`, or `SCENARIO_INVALID` when it is not a function (a builder's result, e.g. `text("ok")`). */
function checkScenario<S>(apiName: string, scenario: S): S {
  if (typeof scenario === "function") return scenario;
  throw new RennetError(
    "SCENARIO_INVALID",
    `${apiName} server: a scenario is a function (request, index) => plan, such as a scenarios builder's result ` +
      `(text("ok")), got ${scenario === null ? "null" : typeof scenario}`,
    { details: { option: "scenario" } },
  );
}

/**
 * Why `plan`, a scenario's answer, cannot be sent, or null: not an object of one of the API's plan types, an
 * `http-error` status outside 100–599, a `stream` without an `events` array or whose `end` is not `close` or
 * `hang`, or a stream holding an event of the other loopback API.
 */
function planProblem(
  plan: unknown,
  api: Pick<ScenarioApi<unknown>, "planTypes" | "foreignEvent">,
): string | null {
  const types = api.planTypes;
  if (!isRecord(plan) || typeof plan.type !== "string" || !types.includes(plan.type))
    return `scenario returned ${JSON.stringify(plan) ?? String(plan)}, not a plan of type ${types.join(", ")}`;
  const { status, events, end } = plan;
  if (
    plan.type === "http-error" &&
    !(Number.isInteger(status) && Number(status) >= 100 && Number(status) <= 599)
  )
    return `scenario returned an http-error with status ${String(status)}, not an HTTP status (100–599)`;
  if (plan.type === "stream" && !(Array.isArray(events) && (end === "close" || end === "hang")))
    return 'scenario returned a stream without an events array and an end of "close" or "hang"';
  if (Array.isArray(events))
    for (const event of events as unknown[]) {
      const type = isRecord(event) && typeof event.type === "string" ? event.type : "";
      const foreign = api.foreignEvent(type);
      if (foreign !== null) return `scenario returned a ${type} event: ${foreign}`;
    }
  return null;
}

/**
 * A loopback API server whose one route is answered from a scenario (`scenario(request, index)`, the index
 * counting from 0 since the scenario was installed) and the rest by its {@link ScenarioApi}, over the recording
 * {@link LoopbackHttpServer}; callers may wait until a number of scenario requests came.
 */
export class ScenarioServer<Plan> {
  readonly #api: ScenarioApi<Plan>;
  readonly #http: LoopbackHttpServer;
  readonly #waiters = new CountWaiters(
    () => this.scenarioRequests().length,
    () => this.scenarioRequests(),
  );
  #scenario: (request: RecordedRequest, index: number) => Plan;
  #scenarioIndex = 0;

  constructor(
    api: ScenarioApi<Plan>,
    scenario: (request: RecordedRequest, index: number) => Plan,
    maxBodyBytes?: number,
  ) {
    this.#api = api;
    this.#scenario = checkScenario(api.name, scenario);
    this.#http = new LoopbackHttpServer(
      { name: api.name, tooLarge: api.tooLarge, answer: (request, res) => this.#answer(request, res) },
      maxBodyBytes,
    );
  }

  get port(): number {
    return this.#http.port;
  }
  get requests(): readonly RecordedRequest[] {
    return this.#http.requests;
  }

  listen(): Promise<void> {
    return this.#http.listen();
  }

  /** The requests of the scenario's route, in order. */
  scenarioRequests(): RecordedRequest[] {
    return this.#http.requests.filter((request) => this.#isScenarioRoute(request));
  }

  setScenario(next: (request: RecordedRequest, index: number) => Plan): void {
    this.#scenario = checkScenario(this.#api.name, next);
    this.#scenarioIndex = 0;
  }

  /** Rejects with `TESTKIT_OPTIONS_INVALID` when `count` is not a whole number ≥ 0 (it would never be reached). */
  waitForScenarioRequests(count: number, options: { signal?: AbortSignal } = {}): Promise<RecordedRequest[]> {
    if (!Number.isSafeInteger(count) || count < 0)
      return Promise.reject(
        invalidTestkitOption(
          `${this.#api.name} server`,
          "count",
          `must be a whole number of requests ≥ 0, got ${typeof count === "string" ? JSON.stringify(count) : String(count)}`,
        ),
      );
    return this.#waiters.wait(count, options.signal);
  }

  close(): Promise<void> {
    this.#waiters.close((awaited) => this.#api.closedError(awaited, this.scenarioRequests().length));
    return this.#http.close();
  }

  /** Writes a planned stream as server-sent events (see {@link LoopbackHttpServer.streamEvents}). */
  streamEvents<E>(res: ServerResponse, stream: PlannedEventStream<E>, encode: (event: E) => string) {
    return this.#http.streamEvents(res, stream, encode);
  }

  #isScenarioRoute(request: RecordedRequest): boolean {
    return request.method === "POST" && pathOnly(request.path) === this.#api.scenarioPath;
  }

  async #answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    if (!this.#isScenarioRoute(request)) {
      this.#api.other(request, res);
      return;
    }
    const index = this.#scenarioIndex++;
    this.#waiters.notify();
    let plan: Plan;
    try {
      plan = this.#scenario(request, index);
    } catch (error) {
      plan = this.#api.scenarioThrew(`${this.#api.name}: scenario threw: ${errorMessage(error)}`);
    }
    const problem = planProblem(plan, this.#api);
    if (problem !== null) plan = this.#api.scenarioThrew(`${this.#api.name}: ${problem}`);
    await this.#api.send(plan, request, res, this);
  }
}
