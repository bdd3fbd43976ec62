import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { TRANSLATION_SETTINGS, type TranslationSettingsDoc } from '../read-models';
import { presentTranslationSettings } from '../presenters';

export interface TranslationSettingsView {
  body: ReturnType<typeof presentTranslationSettings>;
  /** Revision of the settings' stream, for the ETag. */
  version: number;
}

/** One translation settings resource; any member of its organization may read it. */
export class GetTranslationSettingsQuery extends Query<TranslationSettingsView> {
  constructor(
    readonly organizationId: string,
    readonly translationSettingsId: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetTranslationSettingsQuery)
export class GetTranslationSettingsHandler implements IQueryHandler<GetTranslationSettingsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({
    organizationId,
    translationSettingsId,
    userId,
  }: GetTranslationSettingsQuery): Promise<TranslationSettingsView> {
    const role = await this.organizations.requireMember(organizationId, userId);
    const doc = await this.store.get<TranslationSettingsDoc>(TRANSLATION_SETTINGS, translationSettingsId);
    if (!doc || doc.organizationId !== organizationId) {
      throw new NotFound(`Translation settings ${translationSettingsId} not found`);
    }
    return { body: presentTranslationSettings(doc, this.urls, role), version: doc.version };
  }
}
