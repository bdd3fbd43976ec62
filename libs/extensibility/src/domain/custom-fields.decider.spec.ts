import { fold } from '@app/kernel/domain';
import { at, given } from '@app/kernel/testing';
import {
  type CustomFieldCreated,
  type CustomFieldsCommand,
  type CustomFieldsEvent,
  customFieldsDecider,
} from './custom-fields.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const org = 'org-1';

const created = (
  name: string,
  fieldId: string,
  type: CustomFieldCreated['data']['type'],
  options?: string[],
): CustomFieldCreated => ({
  type: 'CustomFieldCreated',
  data: {
    organizationId: org,
    fieldId,
    name,
    type,
    title: name,
    description: '',
    placeholder: '',
    ...(options ? { options } : {}),
    createdAt: T0,
  },
});

const create = (data: Partial<Extract<CustomFieldsCommand, { type: 'CreateCustomField' }>['data']>) =>
  ({
    type: 'CreateCustomField',
    data: { organizationId: org, fieldId: 'f-1', name: 'owner', type: 'text', ...data },
    metadata: at(T1),
  }) as CustomFieldsCommand;

const setValues = (spaceId: string, values: Record<string, unknown>): CustomFieldsCommand => ({
  type: 'SetSpaceCustomFieldValues',
  data: { organizationId: org, spaceId, values: values as never },
  metadata: at(T1),
});

const valuesChanged = (spaceId: string, set: Record<string, unknown>, removed: string[] = []): CustomFieldsEvent => ({
  type: 'SpaceCustomFieldValuesChanged',
  data: { organizationId: org, spaceId, set: set as never, removed, changedAt: T1 },
});

const history: CustomFieldsEvent[] = [
  created('owner', 'f-owner', 'text'),
  created('priority', 'f-priority', 'number'),
  created('public', 'f-public', 'boolean'),
  created('labels', 'f-labels', 'tags'),
  created('stage', 'f-stage', 'select:single', ['draft', 'review', 'final']),
  created('audience', 'f-audience', 'select:multi', ['devs', 'ops', 'sales']),
];

describe('custom fields decider', () => {
  describe('CreateCustomField', () => {
    it('creates a field, filling title, description and placeholder', () => {
      given(customFieldsDecider)
        .when(create({ name: 'owner', title: 'Owner' }))
        .then([
          {
            type: 'CustomFieldCreated',
            data: {
              organizationId: org,
              fieldId: 'f-1',
              name: 'owner',
              type: 'text',
              title: 'Owner',
              description: '',
              placeholder: '',
              createdAt: T1,
            },
          },
        ]);
    });

    it('keeps the options of a select field', () => {
      given(customFieldsDecider)
        .when(create({ name: 'stage', type: 'select:single', options: ['a', 'b'] }))
        .then([
          {
            ...created('stage', 'f-1', 'select:single', ['a', 'b']),
            data: { ...created('stage', 'f-1', 'select:single', ['a', 'b']).data, createdAt: T1 },
          },
        ]);
    });

    it('refuses a name already used in the organization (409)', () => {
      given(customFieldsDecider, history)
        .when(create({ name: 'owner' }))
        .thenThrows('illegal-state', /owner/);
    });

    it('accepts a name again once its field was deleted', () => {
      const deleted: CustomFieldsEvent = {
        type: 'CustomFieldDeleted',
        data: { organizationId: org, fieldId: 'f-owner', name: 'owner', deletedAt: T0 },
      };
      given(customFieldsDecider, [...history, deleted])
        .when(create({ name: 'owner', fieldId: 'f-2' }))
        .then([
          { ...created('owner', 'f-2', 'text'), data: { ...created('owner', 'f-2', 'text').data, createdAt: T1 } },
        ]);
    });

    it.each([
      ['Owner', /name/],
      ['with space', /name/],
      ['', /name/],
      ['x'.repeat(51), /name/],
    ])('refuses the name of case %#', (name, message) => {
      given(customFieldsDecider).when(create({ name })).thenThrows('validation', message);
    });

    it('accepts a name of 50 characters with digits, "_" and "-"', () => {
      const name = `a-b_9${'x'.repeat(45)}`;
      expect(customFieldsDecider.decide(create({ name }), customFieldsDecider.initialState())).toHaveLength(1);
    });

    it('counts lengths in code points', () => {
      const emoji = '😀';
      expect(customFieldsDecider.decide(create({ title: emoji.repeat(100) }), { fields: {} })).toHaveLength(1);
      given(customFieldsDecider)
        .when(create({ title: emoji.repeat(101) }))
        .thenThrows('validation', /title/);
    });

    it('refuses titles, descriptions and placeholders over their limits, naming the field', () => {
      given(customFieldsDecider)
        .when(create({ title: 'x'.repeat(101) }))
        .thenThrows('validation', /^title/);
      given(customFieldsDecider)
        .when(create({ description: 'x'.repeat(201) }))
        .thenThrows('validation', /^description/);
      given(customFieldsDecider)
        .when(create({ placeholder: 'x'.repeat(101) }))
        .thenThrows('validation', /^placeholder/);
    });

    it('refuses an unknown type', () => {
      given(customFieldsDecider)
        .when(create({ type: 'date' as never }))
        .thenThrows('validation', /^type/);
    });

    it('wants 1 to 50 distinct options of 1 to 40 characters, and only on select fields', () => {
      const select = (options?: string[]) => create({ type: 'select:multi', options });
      given(customFieldsDecider)
        .when(select())
        .thenThrows('validation', /^options/);
      given(customFieldsDecider)
        .when(select([]))
        .thenThrows('validation', /^options/);
      const many = Array.from({ length: 51 }, (_, i) => `o${i}`);
      given(customFieldsDecider)
        .when(select(many))
        .thenThrows('validation', /^options: must have 1 to 50/);
      given(customFieldsDecider)
        .when(select(['a', 'a']))
        .thenThrows('validation', /appears more than once/);
      given(customFieldsDecider)
        .when(select(['x'.repeat(41)]))
        .thenThrows('validation', /^options\[0\]/);
      given(customFieldsDecider)
        .when(select(['']))
        .thenThrows('validation', /^options\[0\]/);
      given(customFieldsDecider)
        .when(create({ type: 'text', options: ['a'] }))
        .thenThrows('validation', /only select/);
      expect(customFieldsDecider.decide(select(many.slice(0, 50)), { fields: {} })).toHaveLength(1);
    });
  });

  describe('UpdateCustomField', () => {
    const update = (name: string, changes: Record<string, unknown>): CustomFieldsCommand => ({
      type: 'UpdateCustomField',
      data: { organizationId: org, name, changes },
      metadata: at(T1),
    });

    it('records the changes it was given', () => {
      given(customFieldsDecider, history)
        .when(update('stage', { title: 'Stage', options: ['draft', 'final'], description: undefined }))
        .then([
          {
            type: 'CustomFieldUpdated',
            data: {
              organizationId: org,
              fieldId: 'f-stage',
              name: 'stage',
              changes: { title: 'Stage', options: ['draft', 'final'] },
              updatedAt: T1,
            },
          },
        ]);
    });

    it('does nothing without changes', () => {
      given(customFieldsDecider, history).when(update('owner', {})).thenNothing();
    });

    it('refuses an unknown field, options on a non-select field and limits', () => {
      given(customFieldsDecider, history)
        .when(update('nope', { title: 'x' }))
        .thenThrows('not-found', /nope/);
      given(customFieldsDecider, history)
        .when(update('owner', { options: ['a'] }))
        .thenThrows('validation', /options/);
      given(customFieldsDecider, history)
        .when(update('stage', { options: [] }))
        .thenThrows('validation', /options/);
      given(customFieldsDecider, history)
        .when(update('owner', { placeholder: 'x'.repeat(101) }))
        .thenThrows('validation', /placeholder/);
    });
  });

  describe('DeleteCustomField', () => {
    const remove = (name: string): CustomFieldsCommand => ({
      type: 'DeleteCustomField',
      data: { organizationId: org, name },
      metadata: at(T1),
    });

    it("removes the field's values from every space that had one, then the field", () => {
      given(customFieldsDecider, [
        ...history,
        valuesChanged('space-a', { 'f-owner': 'ada', 'f-priority': 1 }),
        valuesChanged('space-b', { 'f-owner': 'bob' }),
        valuesChanged('space-c', { 'f-priority': 2 }),
      ])
        .when(remove('owner'))
        .then([
          {
            type: 'SpaceCustomFieldValuesChanged',
            data: {
              organizationId: org,
              spaceId: 'space-a',
              set: {},
              removed: ['f-owner'],
              reason: 'field-deleted',
              changedAt: T1,
            },
          },
          {
            type: 'SpaceCustomFieldValuesChanged',
            data: {
              organizationId: org,
              spaceId: 'space-b',
              set: {},
              removed: ['f-owner'],
              reason: 'field-deleted',
              changedAt: T1,
            },
          },
          {
            type: 'CustomFieldDeleted',
            data: { organizationId: org, fieldId: 'f-owner', name: 'owner', deletedAt: T1 },
          },
        ]);
    });

    it('does not count a space whose value was removed before', () => {
      given(customFieldsDecider, [
        ...history,
        valuesChanged('space-a', { 'f-owner': 'ada' }),
        valuesChanged('space-a', {}, ['f-owner']),
      ])
        .when(remove('owner'))
        .then([
          {
            type: 'CustomFieldDeleted',
            data: { organizationId: org, fieldId: 'f-owner', name: 'owner', deletedAt: T1 },
          },
        ]);
    });

    it('does nothing for a field that is already gone', () => {
      given(customFieldsDecider, history).when(remove('nope')).thenNothing();
    });
  });

  describe('SetSpaceCustomFieldValues', () => {
    it('sets values of every type, keyed by field id', () => {
      given(customFieldsDecider, history)
        .when(
          setValues('space-a', {
            owner: 'Ada',
            priority: 2.5,
            public: false,
            labels: ['api', 'beta'],
            stage: 'review',
            audience: ['ops', 'devs'],
          }),
        )
        .then([
          valuesChanged('space-a', {
            'f-owner': 'Ada',
            'f-priority': 2.5,
            'f-public': false,
            'f-labels': ['api', 'beta'],
            'f-stage': 'review',
            'f-audience': ['ops', 'devs'],
          }),
        ]);
    });

    it('removes a value with null, and ignores null for a value never set', () => {
      given(customFieldsDecider, [...history, valuesChanged('space-a', { 'f-owner': 'Ada' })])
        .when(setValues('space-a', { owner: null, priority: null, public: true }))
        .then([valuesChanged('space-a', { 'f-public': true }, ['f-owner'])]);
      given(customFieldsDecider, history)
        .when(setValues('space-a', { owner: null }))
        .thenNothing();
    });

    it.each([
      ['owner', 3, /values.owner.value: must be a string/],
      ['owner', 'x'.repeat(257), /values.owner.value: must have at most 256/],
      ['priority', '3', /values.priority.value: must be a number/],
      ['public', 'yes', /values.public.value: must be true or false/],
      ['labels', 'api', /values.labels.value: must be a list of strings/],
      ['labels', ['ok', 'x'.repeat(257)], /values.labels.value\[1\]/],
      ['labels', ['a', 'a'], /appears more than once/],
      ['stage', 'shipped', /"shipped" is not one of the field's options/],
      ['stage', ['draft'], /values.stage.value: must be one of/],
      ['audience', ['devs', 'execs'], /"execs" is not one of/],
      ['audience', 'devs', /must be a list of strings/],
    ])('refuses a wrong value for %s (case %#)', (name, value, message) => {
      given(customFieldsDecider, history)
        .when(setValues('space-a', { [name]: value }))
        .thenThrows('validation', message);
    });

    it('accepts a text value of 256 code points', () => {
      const state = fold(customFieldsDecider, history);
      expect(customFieldsDecider.decide(setValues('s', { owner: '😀'.repeat(256) }), state)).toHaveLength(1);
    });

    it('refuses the whole change when one name is unknown or one value is wrong', () => {
      given(customFieldsDecider, history)
        .when(setValues('space-a', { owner: 'Ada', colour: 'red' }))
        .thenThrows('validation', /no custom field named colour/);
      given(customFieldsDecider, history)
        .when(setValues('space-a', { owner: 'Ada', priority: 'high' }))
        .thenThrows('validation', /priority/);
    });

    it('wants 1 to 100 names', () => {
      given(customFieldsDecider, history)
        .when(setValues('space-a', {}))
        .thenThrows('validation', /^values/);
    });

    it('checks against the current options, while narrowing keeps stored values', () => {
      const narrowed: CustomFieldsEvent = {
        type: 'CustomFieldUpdated',
        data: {
          organizationId: org,
          fieldId: 'f-stage',
          name: 'stage',
          changes: { options: ['final'] },
          updatedAt: T1,
        },
      };
      const before = [...history, valuesChanged('space-a', { 'f-stage': 'draft' })];
      given(customFieldsDecider, [...before, narrowed])
        .when(setValues('space-b', { stage: 'draft' }))
        .thenThrows('validation', /not one of/);
      // the old value still counts as held: deleting the field removes it
      const state = fold(customFieldsDecider, [...before, narrowed]);
      expect(state.fields.stage).toEqual({
        id: 'f-stage',
        type: 'select:single',
        options: ['final'],
        spaces: ['space-a'],
      });
    });

    it('gives a field created again under an old name none of the old values', () => {
      const events: CustomFieldsEvent[] = [
        ...history,
        valuesChanged('space-a', { 'f-owner': 'Ada' }),
        valuesChanged('space-a', {}, ['f-owner']),
        { type: 'CustomFieldDeleted', data: { organizationId: org, fieldId: 'f-owner', name: 'owner', deletedAt: T1 } },
        created('owner', 'f-owner-2', 'text'),
      ];
      const state = fold(customFieldsDecider, events);
      expect(state.fields.owner).toEqual({ id: 'f-owner-2', type: 'text', spaces: [] });
    });
  });
});
