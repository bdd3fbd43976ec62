export const CLOCK = Symbol('CLOCK');

/** Time source. Deciders never read it: handlers put `now` in the command metadata. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
