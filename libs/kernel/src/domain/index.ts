/** The framework-free part of the kernel: what domain/ folders may import. */
export * from './decider';
export * from './errors';
export * from './roles';
export * from './text';
