import { type Projection } from '@app/kernel';
import { SPACE_VALUE_EVENTS, type SpaceCustomFieldValuesChanged } from '../domain';
import {
  SPACE_CUSTOM_FIELD_VALUES,
  type SpaceCustomFieldValuesDoc,
  spaceValuesDocId,
} from '../application/read-models';

function evolveValues(
  doc: SpaceCustomFieldValuesDoc | null,
  event: SpaceCustomFieldValuesChanged,
): SpaceCustomFieldValuesDoc | null {
  const { organizationId, spaceId, set, removed } = event.data;
  const values = { ...(doc?.values ?? {}), ...set };
  for (const fieldId of removed) delete values[fieldId];
  if (Object.keys(values).length === 0) return null;
  return { id: spaceValuesDocId(organizationId, spaceId), organizationId, spaceId, values };
}

/** The custom-field values of each space, keyed by field id; a space without values has no document. */
export const spaceCustomFieldValuesProjection: Projection<SpaceCustomFieldValuesDoc> = {
  name: SPACE_CUSTOM_FIELD_VALUES,
  version: 1,
  collection: SPACE_CUSTOM_FIELD_VALUES,
  handles: SPACE_VALUE_EVENTS,
  idOf: (event) => spaceValuesDocId(String(event.data.organizationId), String(event.data.spaceId)),
  evolve: (doc, event) => evolveValues(doc, event as unknown as SpaceCustomFieldValuesChanged),
};
