import { Module } from '@nestjs/common';
import { RuntimeRegistry } from '@app/kernel';
import { ContentModule } from '@app/content';
import { IdentityModule } from '@app/identity';
import { extensibilityProjections } from './projections';
import { extensibilityPublicEvents } from './public/public-events';
import { ChangeCustomFieldsHandler } from './application/change-custom-fields/change-custom-fields.command';
import { ListCustomFieldsController } from './application/list-custom-fields/list-custom-fields.http';
import { ListCustomFieldsHandler } from './application/list-custom-fields/list-custom-fields.query';
import { CreateCustomFieldController } from './application/create-custom-field/create-custom-field.http';
import { GetCustomFieldController } from './application/get-custom-field/get-custom-field.http';
import { GetCustomFieldHandler } from './application/get-custom-field/get-custom-field.query';
import { UpdateCustomFieldController } from './application/update-custom-field/update-custom-field.http';
import { DeleteCustomFieldController } from './application/delete-custom-field/delete-custom-field.http';
import { GetSpaceCustomFieldsController } from './application/get-space-custom-fields/get-space-custom-fields.http';
import { GetSpaceCustomFieldsHandler } from './application/get-space-custom-fields/get-space-custom-fields.query';
import { UpdateSpaceCustomFieldsController } from './application/update-space-custom-fields/update-space-custom-fields.http';
import { UpdateSpaceCustomFieldsHandler } from './application/update-space-custom-fields/update-space-custom-fields.command';

import { ChangeTranslationSettingsHandler } from './application/change-translation-settings/change-translation-settings.command';
import { ListTranslationSettingsController } from './application/list-translation-settings/list-translation-settings.http';
import { ListTranslationSettingsHandler } from './application/list-translation-settings/list-translation-settings.query';
import { CreateTranslationSettingsController } from './application/create-translation-settings/create-translation-settings.http';
import { GetTranslationSettingsController } from './application/get-translation-settings/get-translation-settings.http';
import { GetTranslationSettingsHandler } from './application/get-translation-settings/get-translation-settings.query';
import { ReplaceTranslationSettingsController } from './application/replace-translation-settings/replace-translation-settings.http';
import { DeleteTranslationSettingsController } from './application/delete-translation-settings/delete-translation-settings.http';

import { IntegrationAccess } from './application/integration-access';
import { PublishIntegrationController } from './application/publish-integration/publish-integration.http';
import { PublishIntegrationHandler } from './application/publish-integration/publish-integration.command';
import { ChangeIntegrationHandler } from './application/change-integration/change-integration.command';
import { ListIntegrationsController } from './application/list-integrations/list-integrations.http';
import { ListIntegrationsHandler } from './application/list-integrations/list-integrations.query';
import { GetIntegrationController } from './application/get-integration/get-integration.http';
import { GetIntegrationHandler } from './application/get-integration/get-integration.query';
import { GetIntegrationAssetController } from './application/get-integration-asset/get-integration-asset.http';
import { UnpublishIntegrationController } from './application/unpublish-integration/unpublish-integration.http';
import { ListInstallationsController } from './application/list-installations/list-installations.http';
import { ListInstallationsHandler } from './application/list-installations/list-installations.query';
import { InstallIntegrationController } from './application/install-integration/install-integration.http';
import { GetInstallationController } from './application/get-installation/get-installation.http';
import { GetInstallationHandler } from './application/get-installation/get-installation.query';
import { UpdateInstallationController } from './application/update-installation/update-installation.http';
import { UninstallIntegrationController } from './application/uninstall-integration/uninstall-integration.http';
import { ChangeOpenAPISpecHandler } from './application/change-openapi-spec/change-openapi-spec.command';
import { ListOpenAPISpecsController } from './application/list-openapi-specs/list-openapi-specs.http';
import { ListOpenAPISpecsHandler } from './application/list-openapi-specs/list-openapi-specs.query';
import { CreateOpenAPISpecController } from './application/create-openapi-spec/create-openapi-spec.http';
import { GetOpenAPISpecController } from './application/get-openapi-spec/get-openapi-spec.http';
import { GetOpenAPISpecHandler } from './application/get-openapi-spec/get-openapi-spec.query';
import { PutOpenAPISpecController } from './application/put-openapi-spec/put-openapi-spec.http';
import { DeleteOpenAPISpecController } from './application/delete-openapi-spec/delete-openapi-spec.http';
import { ListOpenAPISpecVersionsController } from './application/list-openapi-spec-versions/list-openapi-spec-versions.http';
import { ListOpenAPISpecVersionsHandler } from './application/list-openapi-spec-versions/list-openapi-spec-versions.query';
import { GetOpenAPISpecVersionController } from './application/get-openapi-spec-version/get-openapi-spec-version.http';
import { GetOpenAPISpecVersionHandler } from './application/get-openapi-spec-version/get-openapi-spec-version.query';
import { GetOpenAPISpecVersionContentController } from './application/get-openapi-spec-version-content/get-openapi-spec-version-content.http';
import { GetOpenAPISpecVersionContentHandler } from './application/get-openapi-spec-version-content/get-openapi-spec-version-content.query';
import {
  OpenAPISpecProcessor,
  type ProcessOpenAPISpecSource,
} from './application/process-openapi-spec/process-openapi-spec.command';
import { OpenApiValidator } from './application/process-openapi-spec/openapi-validator';
import { openApiProcessingProcess } from './processes/openapi-processing.process';
import { CustomFieldHistoryController } from './application/custom-field-history/custom-field-history.http';
import { CustomFieldHistoryHandler } from './application/custom-field-history/custom-field-history.query';

/**
 * What an organization adds to the platform: custom fields describing its spaces, translation settings,
 * integrations with their installations, and OpenAPI specifications processed in the background. Integration
 * secrets are sealed with the kernel SECRET_BOX the composition root provides.
 */
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [
    ListCustomFieldsController,
    CreateCustomFieldController,
    GetCustomFieldController,
    CustomFieldHistoryController,
    UpdateCustomFieldController,
    DeleteCustomFieldController,
    GetSpaceCustomFieldsController,
    UpdateSpaceCustomFieldsController,
    ListTranslationSettingsController,
    CreateTranslationSettingsController,
    GetTranslationSettingsController,
    ReplaceTranslationSettingsController,
    DeleteTranslationSettingsController,
    ListIntegrationsController,
    GetIntegrationController,
    PublishIntegrationController,
    UnpublishIntegrationController,
    GetIntegrationAssetController,
    ListInstallationsController,
    InstallIntegrationController,
    GetInstallationController,
    UpdateInstallationController,
    UninstallIntegrationController,
    ListOpenAPISpecsController,
    CreateOpenAPISpecController,
    ListOpenAPISpecVersionsController,
    GetOpenAPISpecVersionContentController,
    GetOpenAPISpecVersionController,
    GetOpenAPISpecController,
    PutOpenAPISpecController,
    DeleteOpenAPISpecController,
  ],
  providers: [
    ChangeCustomFieldsHandler,
    ListCustomFieldsHandler,
    GetCustomFieldHandler,
    CustomFieldHistoryHandler,
    GetSpaceCustomFieldsHandler,
    UpdateSpaceCustomFieldsHandler,
    ChangeTranslationSettingsHandler,
    ListTranslationSettingsHandler,
    GetTranslationSettingsHandler,
    IntegrationAccess,
    PublishIntegrationHandler,
    ChangeIntegrationHandler,
    ListIntegrationsHandler,
    GetIntegrationHandler,
    ListInstallationsHandler,
    GetInstallationHandler,
    ChangeOpenAPISpecHandler,
    ListOpenAPISpecsHandler,
    GetOpenAPISpecHandler,
    ListOpenAPISpecVersionsHandler,
    GetOpenAPISpecVersionHandler,
    GetOpenAPISpecVersionContentHandler,
    OpenAPISpecProcessor,
    { provide: OpenApiValidator, useFactory: () => new OpenApiValidator() },
  ],
})
export class ExtensibilityModule {
  constructor(registry: RuntimeRegistry, openApi: OpenAPISpecProcessor) {
    registry.addProjections(...extensibilityProjections);
    registry.addPublicEventMappers(extensibilityPublicEvents);
    registry.addProcesses(openApiProcessingProcess);
    registry.handleProcessCommand('ProcessOpenAPISpecSource', (command) =>
      openApi.process(command as ProcessOpenAPISpecSource & typeof command),
    );
  }
}
