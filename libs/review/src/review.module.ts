import { Global, Module } from '@nestjs/common';
import { RuntimeRegistry } from '@app/kernel';
import { CHANGE_REQUEST_LOOKUP, ContentModule, SPACE_ACTIVITY } from '@app/content';
import { IdentityModule } from '@app/identity';
import { reviewProjections } from './projections';
import { mergeCompletionProcess } from './processes/merge-completion.process';
import { CreateChangeRequestHandler } from './application/create-change-request/create-change-request.command';
import { CreateChangeRequestController } from './application/create-change-request/create-change-request.http';
import { EditContentHandler } from './application/edit-content/edit-content.command';
import { EditContentController } from './application/edit-content/edit-content.http';
import { ExportPdfController } from './application/export-pdf/export-pdf.http';
import { ExportPdfHandler } from './application/export-pdf/export-pdf.query';
import { GetChangeRequestController } from './application/get-change-request/get-change-request.http';
import { GetChangeRequestHandler } from './application/get-change-request/get-change-request.query';
import { ListChangeRequestsController } from './application/list-change-requests/list-change-requests.http';
import { ListChangeRequestsHandler } from './application/list-change-requests/list-change-requests.query';
import { ChangeRequestMerges } from './application/merge-change-request/change-request-merges';
import { MergeChangeRequestHandler } from './application/merge-change-request/merge-change-request.command';
import { MergeChangeRequestController } from './application/merge-change-request/merge-change-request.http';
import { ReadChangeRequestContentController } from './application/read-change-request-content/read-change-request-content.http';
import { ReadChangeRequestContentHandler } from './application/read-change-request-content/read-change-request-content.query';
import { ReviewAccess } from './application/review-access';
import { ReviewChangeRequestLookup, ReviewSpaceActivity } from './application/space-activity.provider';
import { UpdateChangeRequestHandler } from './application/update-change-request/update-change-request.command';
import { UpdateChangeRequestController } from './application/update-change-request/update-change-request.http';
import { UpdateFromSpaceHandler } from './application/update-from-space/update-from-space.command';
import { UpdateFromSpaceController } from './application/update-from-space/update-from-space.http';

/**
 * Change requests: proposing changes to a space, writing their content, merging them with a three-way merge and
 * updating them from the space. Global so that the content context finds the space counters it shows.
 */
@Global()
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [
    ListChangeRequestsController,
    CreateChangeRequestController,
    GetChangeRequestController,
    UpdateChangeRequestController,
    ReadChangeRequestContentController,
    EditContentController,
    MergeChangeRequestController,
    UpdateFromSpaceController,
    ExportPdfController,
  ],
  providers: [
    ReviewAccess,
    ChangeRequestMerges,
    { provide: SPACE_ACTIVITY, useClass: ReviewSpaceActivity },
    { provide: CHANGE_REQUEST_LOOKUP, useClass: ReviewChangeRequestLookup },
    ListChangeRequestsHandler,
    CreateChangeRequestHandler,
    GetChangeRequestHandler,
    UpdateChangeRequestHandler,
    ReadChangeRequestContentHandler,
    EditContentHandler,
    MergeChangeRequestHandler,
    UpdateFromSpaceHandler,
    ExportPdfHandler,
  ],
  exports: [SPACE_ACTIVITY, CHANGE_REQUEST_LOOKUP],
})
export class ReviewModule {
  constructor(registry: RuntimeRegistry, merges: ChangeRequestMerges) {
    registry.addProjections(...reviewProjections);
    registry.addProcesses(mergeCompletionProcess);
    // Finishes a merge whose start is recorded; a merge already landed or abandoned is left alone.
    registry.handleProcessCommand('CompleteChangeRequestMerge', async (command) => {
      const data = command.data as { spaceId: string; revisionId: string; startedBy?: string };
      await merges.resume(data.spaceId, data.revisionId, {
        ...(data.startedBy ? { actor: data.startedBy } : {}),
        commandId: command.commandId,
        causationId: command.causationId,
        ...(command.correlationId ? { correlationId: command.correlationId } : {}),
      });
    });
  }
}
