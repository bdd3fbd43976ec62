// What the SQLite adapters use of the kernel at run time, for the child-process writers: the whole kernel would
// bring Nest in, which a bare Node process with a tiny TypeScript hook cannot load.
export * from '../../../libs/kernel/src/ports/event-store.port';
export * from '../../../libs/kernel/src/ports/read-store.port';
export * from '../../../libs/kernel/src/runtime/private-files';
export * from '../../../libs/kernel/src/runtime/commit-watch';
export * from '../../../libs/kernel/src/runtime/background-worker';
