import { Global, Inject, Module } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  RuntimeRegistry,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { ContentModule, SHARED_SPACES } from '@app/content';
import { IdentityModule } from '@app/identity';
import { type RemoveSiteSpace, siteDecider, siteStream } from './domain';
import { publishingProjections } from './projections';
import { publishingPublicEvents } from './public/public-events';
import { siteSpaceCleanupProcess } from './processes/site-space-cleanup.process';
import { SiteAccess } from './application/site-access';
import { SiteEndpoints } from './application/site-endpoints';
import { SiteViews } from './application/site-views';
import { ChangeSiteHandler } from './application/change-site/change-site.command';
import { ReadSiteHandler } from './application/read-site/read-site.query';
import { ListSitesController } from './application/list-sites/list-sites.http';
import { ListSitesHandler } from './application/list-sites/list-sites.query';
import { CreateSiteController } from './application/create-site/create-site.http';
import { CreateSiteHandler } from './application/create-site/create-site.command';
import { GetSiteController } from './application/get-site/get-site.http';
import { UpdateSiteController } from './application/update-site/update-site.http';
import { DeleteSiteController } from './application/delete-site/delete-site.http';
import { PublishSiteController } from './application/publish-site/publish-site.http';
import { ListSiteSpacesController } from './application/list-site-spaces/list-site-spaces.http';
import { AddSiteSpaceController } from './application/add-site-space/add-site-space.http';
import { UpdateSiteSpaceController } from './application/update-site-space/update-site-space.http';
import { DeleteSiteSpaceController } from './application/delete-site-space/delete-site-space.http';
import { MoveSiteSpaceController } from './application/move-site-space/move-site-space.http';
import { ListSectionsController } from './application/list-sections/list-sections.http';
import { AddSectionController } from './application/add-section/add-section.http';
import { UpdateSectionController } from './application/update-section/update-section.http';
import { DeleteSectionController } from './application/delete-section/delete-section.http';
import { MoveSectionController } from './application/move-section/move-section.http';
import { ListSectionGroupsController } from './application/list-section-groups/list-section-groups.http';
import { AddSectionGroupController } from './application/add-section-group/add-section-group.http';
import { UpdateSectionGroupController } from './application/update-section-group/update-section-group.http';
import { DeleteSectionGroupController } from './application/delete-section-group/delete-section-group.http';
import { GroupSectionController } from './application/group-section/group-section.http';
import { UngroupSectionController } from './application/ungroup-section/ungroup-section.http';
import { MoveSectionGroupController } from './application/move-section-group/move-section-group.http';
import { ShareLinksController } from './application/share-links/share-links.http';
import { AdaptiveSchemaController } from './application/update-adaptive-schema/update-adaptive-schema.http';
import { CustomizeSiteController } from './application/customize-site/customize-site.http';
import { SiteHistoryController } from './application/site-history/site-history.http';
import { SiteHistoryHandler } from './application/site-history/site-history.query';

/**
 * Docs sites: which spaces an organization publishes, how they are organized (sections, section groups, site
 * spaces), how the site looks, and who may read it (share links). Global so that content's `shareKey` reads
 * find the SHARED_SPACES port it provides.
 */
@Global()
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [
    ListSitesController,
    CreateSiteController,
    GetSiteController,
    SiteHistoryController,
    UpdateSiteController,
    DeleteSiteController,
    PublishSiteController,
    ListSiteSpacesController,
    AddSiteSpaceController,
    UpdateSiteSpaceController,
    DeleteSiteSpaceController,
    MoveSiteSpaceController,
    ListSectionsController,
    AddSectionController,
    UpdateSectionController,
    DeleteSectionController,
    MoveSectionController,
    ListSectionGroupsController,
    AddSectionGroupController,
    UpdateSectionGroupController,
    DeleteSectionGroupController,
    GroupSectionController,
    UngroupSectionController,
    MoveSectionGroupController,
    ShareLinksController,
    AdaptiveSchemaController,
    CustomizeSiteController,
  ],
  providers: [
    SiteAccess,
    SiteViews,
    SiteEndpoints,
    ChangeSiteHandler,
    ReadSiteHandler,
    SiteHistoryHandler,
    ListSitesHandler,
    CreateSiteHandler,
    { provide: SHARED_SPACES, useExisting: SiteAccess },
  ],
  exports: [SHARED_SPACES],
})
export class PublishingModule {
  constructor(registry: RuntimeRegistry, @Inject(EVENT_STORE) store: EventStore, @Inject(CLOCK) clock: Clock) {
    registry.addProjections(...publishingProjections);
    registry.addPublicEventMappers(publishingPublicEvents);
    registry.addProcesses(siteSpaceCleanupProcess);
    // A space that left (deleted, or moved to another organization) is taken off the sites that showed it.
    registry.handleProcessCommand('RemoveSiteSpace', async (command) => {
      const data = command.data as {
        siteId: string;
        siteSpaceId: string;
        spaceId: string;
        reason: RemoveSiteSpace['data']['reason'];
      };
      const { state } = await loadState(store, siteDecider, siteStream(data.siteId));
      if (state.status !== 'active') return;
      await handleCommand(store, siteDecider, siteStream(data.siteId), {
        type: 'RemoveSiteSpace',
        data: {
          siteId: data.siteId,
          organizationId: state.organizationId,
          siteSpaceId: data.siteSpaceId,
          onlyIfSpace: data.spaceId,
          ...(data.reason ? { reason: data.reason } : {}),
        },
        metadata: metadataFor(clock, undefined, {
          commandId: command.commandId,
          causationId: command.causationId,
          ...(command.correlationId ? { correlationId: command.correlationId } : {}),
        }),
      });
    });
  }
}
