import { Inject, Injectable } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  type CommandMetadata,
  DomainError,
  EVENT_STORE,
  type EventStore,
  type GlobalPosition,
  IllegalState,
  handleCommand,
  loadState,
} from '@app/kernel';
import { type FileNode, type PageNode, loadRevision, recordRevision, switchSpaceRevision } from '@app/content';
import { type ContentConflict, type MergeInProgress, changeRequestsDecider, changeRequestsStream } from '../../domain';
import { mergeContent } from '../merge/three-way-merge';

export interface MergeAnswer {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
  conflicts: ContentConflict[];
  position: GlobalPosition | null;
}

export interface ThreeWay {
  pages: PageNode[];
  files: FileNode[];
  conflicts: ContentConflict[];
}

/**
 * The three-way merges of change requests, shared by merging, updating and the process that finishes a merge
 * interrupted by a crash. Merges of one space run one after the other in this process, so two change requests
 * merged at once both land, the second on top of the first.
 */
@Injectable()
export class ChangeRequestMerges {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Runs `work` when every earlier merge of the space in this process has finished. */
  serialised<T>(spaceId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(spaceId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.queues.set(spaceId, settled);
    void settled.then(() => {
      if (this.queues.get(spaceId) === settled) this.queues.delete(spaceId);
    });
    return run;
  }

  /** Merges `theirs` into `ours` from their common `base`; when `ours` is still the base, theirs is the result. */
  async threeWay(spaceId: string, base: string, ours: string, theirs: string): Promise<ThreeWay> {
    const [baseContent, oursContent, theirsContent] = await Promise.all([
      loadRevision(this.events, base, spaceId),
      loadRevision(this.events, ours, spaceId),
      loadRevision(this.events, theirs, spaceId),
    ]);
    if (ours === base) return { pages: theirsContent.pages, files: theirsContent.files, conflicts: [] };
    if (theirs === base) return { pages: oursContent.pages, files: oursContent.files, conflicts: [] };
    const outcome = mergeContent(baseContent, oursContent, theirsContent);
    return {
      pages: outcome.pages as PageNode[],
      files: outcome.files,
      conflicts: outcome.conflicts.map((conflict) => ({ page: conflict.pageId, path: conflict.path })),
    };
  }

  /**
   * Lands a started merge: records the merge revision, moves the space to it (only from the revision the merge
   * was computed on) and marks the change request merged. Every step is idempotent, so finishing a merge again
   * after a crash completes it exactly once. If the space cannot move (it was locked or changed meanwhile), the
   * merge is abandoned and the caller gets a 409; so it is when the merged content breaks a content limit (too
   * deep or too many pages), which is checked before the merge starts but is checked again here for a merge
   * resumed after a crash.
   */
  async complete(
    spaceId: string,
    changeRequestId: string,
    merging: MergeInProgress,
    actor: string | undefined,
    extra: Partial<CommandMetadata> = {},
    computed?: ThreeWay,
  ): Promise<MergeAnswer> {
    const metadata: CommandMetadata = { now: this.clock.now().toISOString(), ...(actor ? { actor } : {}), ...extra };
    const merged = computed ?? (await this.threeWay(spaceId, merging.base, merging.ours, merging.theirs));
    try {
      await recordRevision(this.events, metadata, {
        revisionId: merging.revisionId,
        spaceId,
        parents: [merging.ours, merging.theirs],
        type: 'merge',
        pages: merged.pages,
        files: merged.files,
        mergedFrom: changeRequestId,
      });
      await switchSpaceRevision(this.events, metadata, {
        spaceId,
        revisionId: merging.revisionId,
        expectedRevisionId: merging.ours,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
        type: 'AbandonMerge',
        data: { spaceId, changeRequestId, revisionId: merging.revisionId, reason: error.message },
        metadata,
      });
      throw new IllegalState(`the change request could not be merged: ${error.message}`);
    }
    const result = merged.conflicts.length > 0 ? 'conflicts' : 'merge';
    const done = await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
      type: 'CompleteMerge',
      data: { spaceId, changeRequestId, revisionId: merging.revisionId, result, conflicts: merged.conflicts },
      metadata,
    });
    return { revision: merging.revisionId, result, conflicts: merged.conflicts, position: done.position };
  }

  /** Finishes the merge the space's stream says has started, if it is this one (the recovering process). */
  async resume(spaceId: string, revisionId: string, causation: Partial<CommandMetadata>): Promise<void> {
    await this.serialised(spaceId, async () => {
      const { state } = await loadState(this.events, changeRequestsDecider, changeRequestsStream(spaceId));
      const merging = state.merging;
      if (!merging || merging.revisionId !== revisionId) return;
      try {
        await this.complete(spaceId, merging.changeRequestId, merging, causation.actor, causation);
      } catch (error) {
        // an abandoned merge is an answer too: nothing is left to finish
        if (!(error instanceof IllegalState)) throw error;
      }
    });
  }
}
