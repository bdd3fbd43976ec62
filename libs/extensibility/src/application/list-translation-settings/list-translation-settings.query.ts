import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { TRANSLATION_SETTINGS, type TranslationSettingsDoc } from '../read-models';
import { presentTranslationSettings } from '../presenters';

/** An organization's translation settings, oldest first; any member may list them. */
export class ListTranslationSettingsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListTranslationSettingsQuery)
export class ListTranslationSettingsHandler implements IQueryHandler<ListTranslationSettingsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListTranslationSettingsQuery) {
    const role = await this.organizations.requireMember(organizationId, userId);
    return readPage<TranslationSettingsDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: TRANSLATION_SETTINGS,
        scope: `translations:${organizationId}`,
        filter: { organizationId },
        sort: [['createdAt', 1]],
        query: params,
      },
      (doc) => presentTranslationSettings(doc, this.urls, role),
    );
  }
}
