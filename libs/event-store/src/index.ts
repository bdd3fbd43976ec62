export { EventStoreModule } from './event-store.module';
export { createEventStore, type EventStoreOptions } from './create-event-store';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
// The EventStoreDB adapter is loaded on demand by createEventStore (import it from
// '@app/event-store/eventstoredb-event-store' to use it directly).
