import { Inject, Module } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  RuntimeRegistry,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import { CONTENT_INVITES, IdentityModule, TEAM_SPACES } from '@app/identity';
import { type PurgeSpace, type RevokeGrant, grantsDecider, grantsStream, spaceDecider, spaceStream } from './domain';
import { contentProjections } from './projections';
import { contentPublicEvents } from './public/public-events';
import { restoreWindowProcess } from './processes/restore-window.process';
import { teamGrantsProcess } from './processes/team-grants.process';
import { ContentAccess } from './application/content-access';
import { SpaceBodies } from './application/space-bodies';
import { CreateCollectionHandler } from './application/create-collection/create-collection.command';
import { CreateCollectionController } from './application/create-collection/create-collection.http';
import { CreateSpaceHandler } from './application/create-space/create-space.command';
import { CreateSpaceController } from './application/create-space/create-space.http';
import { DeleteCollectionHandler } from './application/delete-collection/delete-collection.command';
import { DeleteCollectionController } from './application/delete-collection/delete-collection.http';
import { DownloadBlobController } from './application/download-blob/download-blob.http';
import { DeleteSpaceHandler } from './application/delete-space/delete-space.command';
import { DeleteSpaceController } from './application/delete-space/delete-space.http';
import { DuplicateSpaceHandler } from './application/duplicate-space/duplicate-space.command';
import { DuplicateSpaceController } from './application/duplicate-space/duplicate-space.http';
import { GetCollectionController } from './application/get-collection/get-collection.http';
import { GetCollectionHandler } from './application/get-collection/get-collection.query';
import { GetSpaceController } from './application/get-space/get-space.http';
import { GetSpaceHandler } from './application/get-space/get-space.query';
import { ListCollectionSpacesController } from './application/list-collection-spaces/list-collection-spaces.http';
import { ListCollectionSpacesHandler } from './application/list-collection-spaces/list-collection-spaces.query';
import { ListCollectionsController } from './application/list-collections/list-collections.http';
import { ListCollectionsHandler } from './application/list-collections/list-collections.query';
import { ListSpacesController } from './application/list-spaces/list-spaces.http';
import { ListSpacesHandler } from './application/list-spaces/list-spaces.query';
import { MoveCollectionHandler } from './application/move-collection/move-collection.command';
import { MoveCollectionController } from './application/move-collection/move-collection.http';
import { MoveSpaceHandler } from './application/move-space/move-space.command';
import { MoveSpaceController } from './application/move-space/move-space.http';
import { ReadContentController } from './application/read-content/read-content.http';
import { ReadContentHandler } from './application/read-content/read-content.query';
import { RestoreSpaceHandler } from './application/restore-space/restore-space.command';
import { RestoreSpaceController } from './application/restore-space/restore-space.http';
import { TransferCollectionHandler } from './application/transfer-collection/transfer-collection.command';
import { TransferCollectionController } from './application/transfer-collection/transfer-collection.http';
import { TransferSpaceHandler } from './application/transfer-space/transfer-space.command';
import { TransferSpaceController } from './application/transfer-space/transfer-space.http';
import { UpdateCollectionHandler } from './application/update-collection/update-collection.command';
import { UpdateCollectionController } from './application/update-collection/update-collection.http';
import { UpdateSpaceHandler } from './application/update-space/update-space.command';
import { UpdateSpaceController } from './application/update-space/update-space.http';
import { SearchContentController } from './application/search-content/search-content.http';
import { SearchOrganizationHandler, SearchSpaceHandler } from './application/search-content/search-content.query';
import { SearchIndexer } from './application/search-content/search-indexer';
import { GrantEndpoints } from './application/grants/grant-endpoints';
import { GrantsController } from './application/grants/grants.http';
import { GrantedTeamSpaces } from './application/grants/team-spaces.provider';
import { ContentInvitesAdapter } from './application/grants/content-invites.provider';
import { SpaceHistoryController } from './application/space-history/space-history.http';
import { SpaceHistoryHandler } from './application/space-history/space-history.query';
import { CollectionHistoryController } from './application/collection-history/collection-history.http';
import { CollectionHistoryHandler } from './application/collection-history/collection-history.query';

/** Collections, spaces and their content (revisions, pages, files), with access inherited along collections. */
@Module({
  imports: [IdentityModule],
  controllers: [
    CreateCollectionController,
    ListCollectionsController,
    GetCollectionController,
    CollectionHistoryController,
    UpdateCollectionController,
    DeleteCollectionController,
    ListCollectionSpacesController,
    MoveCollectionController,
    TransferCollectionController,
    CreateSpaceController,
    ListSpacesController,
    GetSpaceController,
    SpaceHistoryController,
    UpdateSpaceController,
    DeleteSpaceController,
    RestoreSpaceController,
    DuplicateSpaceController,
    MoveSpaceController,
    TransferSpaceController,
    ReadContentController,
    DownloadBlobController,
    SearchContentController,
    GrantsController,
  ],
  providers: [
    GrantEndpoints,
    { provide: TEAM_SPACES, useClass: GrantedTeamSpaces },
    { provide: CONTENT_INVITES, useClass: ContentInvitesAdapter },
    ContentAccess,
    SpaceBodies,
    CreateCollectionHandler,
    ListCollectionsHandler,
    GetCollectionHandler,
    CollectionHistoryHandler,
    UpdateCollectionHandler,
    DeleteCollectionHandler,
    ListCollectionSpacesHandler,
    MoveCollectionHandler,
    TransferCollectionHandler,
    CreateSpaceHandler,
    ListSpacesHandler,
    GetSpaceHandler,
    SpaceHistoryHandler,
    UpdateSpaceHandler,
    DeleteSpaceHandler,
    RestoreSpaceHandler,
    DuplicateSpaceHandler,
    MoveSpaceHandler,
    TransferSpaceHandler,
    ReadContentHandler,
    SearchIndexer,
    SearchOrganizationHandler,
    SearchSpaceHandler,
  ],
  exports: [ContentAccess, GrantEndpoints],
})
export class ContentModule {
  constructor(registry: RuntimeRegistry, @Inject(EVENT_STORE) store: EventStore, @Inject(CLOCK) clock: Clock) {
    registry.addProjections(...contentProjections);
    registry.addPublicEventMappers(contentPublicEvents);
    registry.addProcesses(restoreWindowProcess, teamGrantsProcess);
    // A deleted team's grants are withdrawn; revoking a grant already gone changes nothing.
    registry.handleProcessCommand('RevokeGrant', async (command) => {
      const data = command.data as RevokeGrant['data'];
      await handleCommand(store, grantsDecider, grantsStream(data.target.id), {
        type: 'RevokeGrant',
        data,
        metadata: metadataFor(clock, undefined, {
          commandId: command.commandId,
          causationId: command.causationId,
          correlationId: command.correlationId,
        }),
      });
    });
    // The restore window's process purges spaces; the decider makes a repeated purge a no-op.
    registry.handleProcessCommand('PurgeSpace', async (command) => {
      const data = command.data as PurgeSpace['data'];
      await handleCommand(store, spaceDecider, spaceStream(data.spaceId), {
        type: 'PurgeSpace',
        data,
        metadata: metadataFor(clock, undefined, {
          commandId: command.commandId,
          causationId: command.causationId,
          correlationId: command.correlationId,
        }),
      });
    });
  }
}
