// node-diff3 ships its types where `moduleResolution: node10` cannot see them: what this project uses of it.
declare module 'node-diff3' {
  export interface MergeRegion<T> {
    ok?: T[];
    conflict?: { a: T[]; aIndex: number; o: T[]; oIndex: number; b: T[]; bIndex: number };
  }
  export function diff3Merge<T>(
    a: T[],
    o: T[],
    b: T[],
    options?: { excludeFalseConflicts?: boolean; stringSeparator?: string | RegExp },
  ): MergeRegion<T>[];
}
