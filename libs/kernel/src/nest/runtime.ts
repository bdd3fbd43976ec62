import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { CLOCK, type Clock, systemClock } from '../ports/clock.port';
import { EVENT_STORE, type EventStore, type GlobalPosition } from '../ports/event-store.port';
import { READ_STORE, type ReadStore } from '../ports/read-store.port';
import { type PublicEventMapper } from '../ports/public-events.port';
import { type CommandDispatcher, type ProcessCommand, type ProcessDefinition } from '../runtime/process';
import { ProcessRunner, deadlinesProjection } from '../runtime/process-runner';
import { type Projection } from '../runtime/projection';
import { ProjectionRunner } from '../runtime/projection-runner';

export interface RuntimeOptions {
  /** Run projections and processes in this process (the API does; the CLI does not). */
  runProjections: boolean;
  /** Bounded wait of read-your-writes, in milliseconds. */
  settleTimeoutMs?: number;
  clock?: Clock;
  processTickMs?: number;
}

export const RUNTIME_OPTIONS = Symbol('RUNTIME_OPTIONS');

type ProcessCommandHandler = (
  command: ProcessCommand & { commandId: string; causationId: string; correlationId?: string },
) => Promise<unknown>;

/**
 * Where contexts register what the runtime runs: their projections, processes, and the handlers of the commands
 * their processes send. Contexts register in their module constructors; the runtime starts after all of them.
 */
@Injectable()
export class RuntimeRegistry {
  readonly projections: Projection[] = [];
  readonly processes: ProcessDefinition<unknown>[] = [];
  readonly commandHandlers = new Map<string, ProcessCommandHandler>();
  /** Each context's mapping of its domain events to public events (the subscriptions context reads them). */
  readonly publicEventMappers: PublicEventMapper[] = [];

  addProjections(...projections: Projection[]): void {
    this.projections.push(...projections);
  }

  // Each process has its own state and event types; the registry only stores them for the runner.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  addProcesses(...processes: ProcessDefinition<any, any>[]): void {
    this.processes.push(...(processes as ProcessDefinition<unknown>[]));
  }

  addPublicEventMappers(...mappers: PublicEventMapper[]): void {
    this.publicEventMappers.push(...mappers);
  }

  handleProcessCommand(type: string, handler: ProcessCommandHandler): void {
    if (this.commandHandlers.has(type)) throw new Error(`two handlers for process command ${type}`);
    this.commandHandlers.set(type, handler);
  }
}

/**
 * The running projections and processes, and read-your-writes: a mutating endpoint calls `settle` with the
 * position of its append before it reads its answer from the read models.
 */
@Injectable()
export class Runtime implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Runtime');
  private projectionRunner?: ProjectionRunner;
  private processRunner?: ProcessRunner;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RUNTIME_OPTIONS) private readonly options: RuntimeOptions,
    private readonly registry: RuntimeRegistry,
  ) {}

  get projections(): ProjectionRunner {
    if (!this.projectionRunner) throw new Error('projections do not run in this process');
    return this.projectionRunner;
  }

  get processes(): ProcessRunner {
    if (!this.processRunner) throw new Error('processes do not run in this process');
    return this.processRunner;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.runProjections) return;
    const logger = {
      log: (message: string) => this.logger.log(message),
      warn: (message: string) => this.logger.warn(message),
      error: (message: string) => this.logger.error(message),
    };
    const projections = [...this.registry.projections];
    if (this.registry.processes.length > 0) projections.push(deadlinesProjection as unknown as Projection);
    this.projectionRunner = new ProjectionRunner(this.events, this.readStore, projections, { logger });
    await this.projectionRunner.start();
    if (this.registry.processes.length > 0) {
      const dispatch: CommandDispatcher = async (command) => {
        const handler = this.registry.commandHandlers.get(command.type);
        if (!handler) throw new Error(`no handler for process command ${command.type}`);
        await handler(command);
      };
      this.processRunner = new ProcessRunner(
        this.events,
        this.readStore,
        this.projectionRunner,
        this.clock,
        dispatch,
        this.registry.processes,
        { tickMs: this.options.processTickMs, logger },
      );
      await this.processRunner.start();
    }
  }

  /** Stops the runners before the stores close (stores close in their modules' onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.processRunner?.stop();
    await this.projectionRunner?.stop();
  }

  /** Read-your-writes: waits until the named projections (all when omitted) reflect `position`. */
  async settle(position: GlobalPosition | null, projections?: readonly string[]): Promise<void> {
    if (position === null || !this.projectionRunner) return;
    await this.projectionRunner.waitFor(position, projections, this.options.settleTimeoutMs ?? 5000);
  }

  /** Waits until the read models include everything stored so far, appends of other processes included. */
  async catchUp(projections?: readonly string[]): Promise<void> {
    if (!this.projectionRunner) return;
    await this.projectionRunner.catchUp(projections, this.options.settleTimeoutMs ?? 5000);
  }
}

@Global()
@Module({})
export class RuntimeModule {
  static forRoot(options: RuntimeOptions): DynamicModule {
    return {
      module: RuntimeModule,
      providers: [
        { provide: RUNTIME_OPTIONS, useValue: options },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        RuntimeRegistry,
        Runtime,
      ],
      exports: [RuntimeRegistry, Runtime, CLOCK, RUNTIME_OPTIONS],
    };
  }
}
