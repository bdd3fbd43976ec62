import {
  type Clock,
  type CommandDispatcher,
  type EventStore,
  type ProcessDefinition,
  ProcessRunner,
  type Projection,
  ProjectionRunner,
  type ReadStore,
  deadlinesProjection,
} from '@app/kernel';

export interface RunningProcesses {
  projections: ProjectionRunner;
  processes: ProcessRunner;
  /** Stops the processes, then the projection they rely on. */
  stop(): Promise<void>;
}

/**
 * Process runner tests' set-up: the deadlines projection and a process runner over `processes`, as the service
 * runs them. The periodic deadline check runs every `tickMs`; tests set it far apart and drive deadlines with tick().
 */
export async function runProcesses(options: {
  events: EventStore;
  reads: ReadStore;
  clock: Clock;
  dispatch: CommandDispatcher;
  processes: ProcessDefinition<unknown>[];
  tickMs: number;
}): Promise<RunningProcesses> {
  const { events, reads, clock, dispatch, tickMs } = options;
  const projections = new ProjectionRunner(events, reads, [deadlinesProjection as unknown as Projection]);
  await projections.start();
  const processes = new ProcessRunner(events, reads, projections, clock, dispatch, options.processes, { tickMs });
  await processes.start();
  return {
    projections,
    processes,
    async stop() {
      await processes.stop();
      await projections.stop();
    },
  };
}
