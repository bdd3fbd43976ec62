import { type Projection } from '@app/kernel';
import { CUSTOM_FIELD_EVENTS, type CustomFieldsEvent } from '../domain';
import { CUSTOM_FIELDS, type CustomFieldDoc } from '../application/read-models';

type FieldEvent = Exclude<CustomFieldsEvent, { type: 'SpaceCustomFieldValuesChanged' }>;

function evolveField(doc: CustomFieldDoc | null, event: FieldEvent): CustomFieldDoc | null {
  switch (event.type) {
    case 'CustomFieldCreated': {
      const { fieldId, organizationId, name, type, title, description, placeholder, options, createdAt } = event.data;
      return {
        id: fieldId,
        organizationId,
        name,
        type,
        title,
        description,
        placeholder,
        ...(options ? { options } : {}),
        createdAt,
        updatedAt: createdAt,
      };
    }
    case 'CustomFieldUpdated':
      return doc ? { ...doc, ...event.data.changes, updatedAt: event.data.updatedAt } : null;
    case 'CustomFieldDeleted':
      return null;
  }
}

/** The custom fields of every organization, one document per field. */
export const customFieldsProjection: Projection<CustomFieldDoc> = {
  name: CUSTOM_FIELDS,
  version: 1,
  collection: CUSTOM_FIELDS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
    {
      fields: [
        ['organizationId', 1],
        ['name', 1],
      ],
    },
  ],
  handles: CUSTOM_FIELD_EVENTS,
  idOf: (event) => String(event.data.fieldId),
  evolve: (doc, event) => evolveField(doc, event as unknown as FieldEvent),
};
