import { type Doc, type Projection, type RecordedEvent } from '@app/kernel';
import { type CustomFieldsEvent, type TranslationSettingsEvent } from '../domain';
import { customFieldsProjection } from './custom-fields.projection';
import { spaceCustomFieldValuesProjection } from './space-custom-field-values.projection';
import { translationSettingsProjection } from './translation-settings.projection';

/** Runs events through a projection the way the runner does (by `idOf`), and returns the documents it keeps. */
function project<D extends Doc>(projection: Projection<D>, events: (CustomFieldsEvent | TranslationSettingsEvent)[]) {
  const docs = new Map<string, D>();
  events.forEach((event, index) => {
    if (!projection.handles.includes(event.type)) return;
    const recorded = { ...event, revision: index, position: String(index) } as unknown as RecordedEvent;
    const id = projection.idOf(recorded);
    if (id === null) return;
    const next = projection.evolve(docs.get(id) ?? null, recorded);
    if (next) docs.set(id, next);
    else docs.delete(id);
  });
  return docs;
}

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const org = 'org-1';

const fieldCreated = (fieldId: string, name: string): CustomFieldsEvent => ({
  type: 'CustomFieldCreated',
  data: {
    organizationId: org,
    fieldId,
    name,
    type: 'select:multi',
    title: name,
    description: '',
    placeholder: '',
    options: ['a', 'b'],
    createdAt: T0,
  },
});
const values = (spaceId: string, set: Record<string, string[]>, removed: string[] = []): CustomFieldsEvent => ({
  type: 'SpaceCustomFieldValuesChanged',
  data: { organizationId: org, spaceId, set, removed, changedAt: T1 },
});

describe('extensibility projections', () => {
  it('keeps one document per field, changed in place and removed with the field', () => {
    const docs = project(customFieldsProjection, [
      fieldCreated('f-1', 'audience'),
      fieldCreated('f-2', 'tier'),
      {
        type: 'CustomFieldUpdated',
        data: {
          organizationId: org,
          fieldId: 'f-1',
          name: 'audience',
          changes: { title: 'Audience', options: ['a'] },
          updatedAt: T1,
        },
      },
      { type: 'CustomFieldDeleted', data: { organizationId: org, fieldId: 'f-2', name: 'tier', deletedAt: T1 } },
    ]);
    expect([...docs.values()]).toEqual([
      {
        id: 'f-1',
        organizationId: org,
        name: 'audience',
        type: 'select:multi',
        title: 'Audience',
        description: '',
        placeholder: '',
        options: ['a'],
        createdAt: T0,
        updatedAt: T1,
      },
    ]);
  });

  it("merges a space's values by field id, and drops the document when the last value goes", () => {
    const docs = project(spaceCustomFieldValuesProjection, [
      values('space-a', { 'f-1': ['a'] }),
      values('space-a', { 'f-2': ['b'] }),
      values('space-b', { 'f-1': ['b'] }),
      values('space-a', { 'f-2': ['a', 'b'] }, ['f-1']),
      values('space-b', {}, ['f-1']),
    ]);
    expect([...docs.values()]).toEqual([
      { id: `${org}:space-a`, organizationId: org, spaceId: 'space-a', values: { 'f-2': ['a', 'b'] } },
    ]);
  });

  it('keeps translation settings with their revision, and their languages when a PUT left them out', () => {
    const ids = { translationSettingsId: 'ts-1', organizationId: org };
    const docs = project(translationSettingsProjection, [
      { type: 'TranslationSettingsCreated', data: { ...ids, title: 'One', languages: ['fr'], createdAt: T0 } },
      { type: 'TranslationSettingsReplaced', data: { ...ids, title: 'Two', updatedAt: T1 } },
    ]);
    expect(docs.get('ts-1')).toEqual({
      id: 'ts-1',
      organizationId: org,
      title: 'Two',
      languages: ['fr'],
      createdAt: T0,
      updatedAt: T1,
      version: 1,
    });
    const gone = project(translationSettingsProjection, [
      { type: 'TranslationSettingsCreated', data: { ...ids, title: 'One', languages: [], createdAt: T0 } },
      { type: 'TranslationSettingsDeleted', data: { ...ids, deletedAt: T1 } },
    ]);
    expect(gone.size).toBe(0);
  });
});
