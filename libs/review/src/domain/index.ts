export * from './change-requests.decider';
