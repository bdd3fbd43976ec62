export * from './change-requests.decider';
export * from './comment-thread.decider';
