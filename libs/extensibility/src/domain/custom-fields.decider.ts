import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';
import { checkLength } from './text';

/**
 * An organization's custom fields and the values its spaces give them, in one stream per organization: a value is
 * checked against its field's definition at the moment it is written, and deleting a field removes its values in
 * the same append. Values are keyed by field id, so a field deleted and created again under the same name starts
 * empty.
 */
export const customFieldsStream = (organizationId: string) => `customfields-${organizationId}`;

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const isSelect = (type: CustomFieldType) => type === 'select:multi' || type === 'select:single';

export const CUSTOM_FIELD_NAME_PATTERN = /^[a-z_\-0-9]+$/;
export const CUSTOM_FIELD_LIMITS = {
  name: 50,
  title: 100,
  description: 200,
  placeholder: 100,
  option: 40,
  options: 50,
  /** A `text` value, and each entry of a `tags` value. */
  text: 256,
  /** Entries of a `tags` value (the spec sets none; this keeps one value small). */
  tags: 100,
  /** Fields one PATCH of a space may name. */
  perUpdate: 100,
};

export type CustomFieldValue = string | number | boolean | string[];

export interface CustomFieldText {
  title?: string;
  description?: string;
  placeholder?: string;
}

type Cmd<Type extends string, Data> = Command<Type, { organizationId: string } & Data>;

export type CreateCustomField = Cmd<
  'CreateCustomField',
  { fieldId: string; name: string; type: CustomFieldType; options?: string[] } & CustomFieldText
>;
export type UpdateCustomField = Cmd<
  'UpdateCustomField',
  { name: string; changes: CustomFieldText & { options?: string[] } }
>;
export type DeleteCustomField = Cmd<'DeleteCustomField', { name: string }>;
/** `null` removes the space's value of that field; fields left out keep theirs. */
export type SetSpaceCustomFieldValues = Cmd<
  'SetSpaceCustomFieldValues',
  { spaceId: string; values: Record<string, CustomFieldValue | null> }
>;

export type CustomFieldsCommand = CreateCustomField | UpdateCustomField | DeleteCustomField | SetSpaceCustomFieldValues;

export type CustomFieldCreated = DomainEvent<
  'CustomFieldCreated',
  {
    organizationId: string;
    fieldId: string;
    name: string;
    type: CustomFieldType;
    title: string;
    description: string;
    placeholder: string;
    options?: string[];
    createdAt: string;
  }
>;
export type CustomFieldUpdated = DomainEvent<
  'CustomFieldUpdated',
  {
    organizationId: string;
    fieldId: string;
    name: string;
    changes: CustomFieldText & { options?: string[] };
    updatedAt: string;
  }
>;
export type CustomFieldDeleted = DomainEvent<
  'CustomFieldDeleted',
  { organizationId: string; fieldId: string; name: string; deletedAt: string }
>;
/** `set` and `removed` are keyed by field id. `reason` is set when the values went with their deleted field. */
export type SpaceCustomFieldValuesChanged = DomainEvent<
  'SpaceCustomFieldValuesChanged',
  {
    organizationId: string;
    spaceId: string;
    set: Record<string, CustomFieldValue>;
    removed: string[];
    reason?: 'field-deleted';
    changedAt: string;
  }
>;

export type CustomFieldsEvent =
  CustomFieldCreated | CustomFieldUpdated | CustomFieldDeleted | SpaceCustomFieldValuesChanged;

export const CUSTOM_FIELD_EVENTS = ['CustomFieldCreated', 'CustomFieldUpdated', 'CustomFieldDeleted'] as const;
export const SPACE_VALUE_EVENTS = ['SpaceCustomFieldValuesChanged'] as const;

/** What decisions need of a field: its id, its type, its options, and the spaces that hold a value of it. */
export interface FieldState {
  id: string;
  type: CustomFieldType;
  options?: string[];
  spaces: string[];
}

export interface CustomFieldsState {
  /** By name. */
  fields: Record<string, FieldState>;
}

const owns = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

function checkText(text: CustomFieldText): void {
  if (text.title !== undefined) checkLength('title', text.title, CUSTOM_FIELD_LIMITS.title);
  if (text.description !== undefined) checkLength('description', text.description, CUSTOM_FIELD_LIMITS.description);
  if (text.placeholder !== undefined) checkLength('placeholder', text.placeholder, CUSTOM_FIELD_LIMITS.placeholder);
}

function checkOptions(options: string[]): void {
  if (options.length < 1 || options.length > CUSTOM_FIELD_LIMITS.options) {
    throw new ValidationFailed(
      `options: must have 1 to ${CUSTOM_FIELD_LIMITS.options} entries (has ${options.length})`,
    );
  }
  options.forEach((option, index) => checkLength(`options[${index}]`, option, CUSTOM_FIELD_LIMITS.option, 1));
  const repeated = options.find((option, index) => options.indexOf(option) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`options: "${repeated}" appears more than once`);
}

function checkName(name: string): void {
  checkLength('name', name, CUSTOM_FIELD_LIMITS.name, 1);
  if (!CUSTOM_FIELD_NAME_PATTERN.test(name)) {
    throw new ValidationFailed('name: only lower-case letters, digits, "_" and "-" are allowed');
  }
}

function stringList(field: string, value: CustomFieldValue, max: number): string[] {
  if (!Array.isArray(value) || !value.every((one) => typeof one === 'string')) {
    throw new ValidationFailed(`${field}: must be a list of strings`);
  }
  if (value.length > max) throw new ValidationFailed(`${field}: at most ${max} entries (has ${value.length})`);
  const repeated = value.find((one, index) => value.indexOf(one) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`${field}: "${repeated}" appears more than once`);
  return value;
}

/** Refuses a value that does not fit its field's type (and current options). */
export function checkValue(name: string, field: Pick<FieldState, 'type' | 'options'>, value: CustomFieldValue): void {
  const path = `values.${name}.value`;
  const options = field.options ?? [];
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw new ValidationFailed(`${path}: must be a string (a text field)`);
      checkLength(path, value, CUSTOM_FIELD_LIMITS.text);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new ValidationFailed(`${path}: must be a number (a number field)`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw new ValidationFailed(`${path}: must be true or false (a boolean field)`);
      return;
    case 'tags':
      stringList(path, value, CUSTOM_FIELD_LIMITS.tags).forEach((tag, index) =>
        checkLength(`${path}[${index}]`, tag, CUSTOM_FIELD_LIMITS.text),
      );
      return;
    case 'select:single':
      if (typeof value !== 'string') throw new ValidationFailed(`${path}: must be one of the field's options`);
      if (!options.includes(value)) throw new ValidationFailed(`${path}: "${value}" is not one of the field's options`);
      return;
    case 'select:multi': {
      const unknown = stringList(path, value, options.length).find((one) => !options.includes(one));
      if (unknown !== undefined) throw new ValidationFailed(`${path}: "${unknown}" is not one of the field's options`);
      return;
    }
    default:
      assertNever(field.type);
  }
}

function requireField(state: CustomFieldsState, name: string): FieldState {
  const field = owns(state.fields, name) ? state.fields[name] : undefined;
  if (!field) throw new NotFound(`No custom field named ${name} in this organization`);
  return field;
}

function decide(command: CustomFieldsCommand, state: CustomFieldsState): CustomFieldsEvent[] {
  const { organizationId } = command.data;
  const now = command.metadata.now;
  switch (command.type) {
    case 'CreateCustomField': {
      const { fieldId, name, type, options } = command.data;
      checkName(name);
      if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
        throw new ValidationFailed(`type: must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
      }
      checkText(command.data);
      if (isSelect(type)) {
        if (options === undefined) throw new ValidationFailed(`options: a ${type} field needs its options`);
        checkOptions(options);
      } else if (options !== undefined) {
        throw new ValidationFailed(`options: only select fields have options, not a ${type} field`);
      }
      if (owns(state.fields, name)) {
        throw new IllegalState(`A custom field named ${name} already exists in this organization`);
      }
      return [
        {
          type: 'CustomFieldCreated',
          data: {
            organizationId,
            fieldId,
            name,
            type,
            title: command.data.title ?? name,
            description: command.data.description ?? '',
            placeholder: command.data.placeholder ?? '',
            ...(options !== undefined ? { options } : {}),
            createdAt: now,
          },
        },
      ];
    }
    case 'UpdateCustomField': {
      const { name, changes } = command.data;
      checkText(changes);
      const field = requireField(state, name);
      if (changes.options !== undefined) {
        if (!isSelect(field.type)) {
          throw new ValidationFailed(`options: only select fields have options, not a ${field.type} field`);
        }
        checkOptions(changes.options);
      }
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      if (Object.keys(defined).length === 0) return [];
      return [
        {
          type: 'CustomFieldUpdated',
          data: { organizationId, fieldId: field.id, name, changes: defined, updatedAt: now },
        },
      ];
    }
    case 'DeleteCustomField': {
      const { name } = command.data;
      const field = owns(state.fields, name) ? state.fields[name] : undefined;
      if (!field) return [];
      return [
        ...field.spaces.map((spaceId): SpaceCustomFieldValuesChanged => ({
          type: 'SpaceCustomFieldValuesChanged',
          data: { organizationId, spaceId, set: {}, removed: [field.id], reason: 'field-deleted', changedAt: now },
        })),
        { type: 'CustomFieldDeleted', data: { organizationId, fieldId: field.id, name, deletedAt: now } },
      ];
    }
    case 'SetSpaceCustomFieldValues': {
      const { spaceId, values } = command.data;
      const names = Object.keys(values);
      if (names.length < 1 || names.length > CUSTOM_FIELD_LIMITS.perUpdate) {
        throw new ValidationFailed(
          `values: must name 1 to ${CUSTOM_FIELD_LIMITS.perUpdate} fields (names ${names.length})`,
        );
      }
      const unknown = names.filter((name) => !owns(state.fields, name));
      if (unknown.length > 0) {
        throw new ValidationFailed(`values: no custom field named ${unknown.join(', ')} in this organization`);
      }
      const set: Record<string, CustomFieldValue> = {};
      const removed: string[] = [];
      for (const name of names) {
        const field = state.fields[name];
        const value = values[name];
        if (value === null) {
          if (field.spaces.includes(spaceId)) removed.push(field.id);
          continue;
        }
        checkValue(name, field, value);
        set[field.id] = value;
      }
      if (Object.keys(set).length === 0 && removed.length === 0) return [];
      return [
        { type: 'SpaceCustomFieldValuesChanged', data: { organizationId, spaceId, set, removed, changedAt: now } },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: CustomFieldsState, event: CustomFieldsEvent): CustomFieldsState {
  switch (event.type) {
    case 'CustomFieldCreated': {
      const { name, fieldId, type, options } = event.data;
      const field: FieldState = { id: fieldId, type, spaces: [], ...(options ? { options } : {}) };
      return { fields: { ...state.fields, [name]: field } };
    }
    case 'CustomFieldUpdated': {
      const field = state.fields[event.data.name];
      if (!field || event.data.changes.options === undefined) return state;
      return { fields: { ...state.fields, [event.data.name]: { ...field, options: event.data.changes.options } } };
    }
    case 'CustomFieldDeleted': {
      const fields = { ...state.fields };
      delete fields[event.data.name];
      return { fields };
    }
    case 'SpaceCustomFieldValuesChanged': {
      const { spaceId, set, removed } = event.data;
      const fields: Record<string, FieldState> = {};
      for (const [name, field] of Object.entries(state.fields)) {
        const holds = field.spaces.includes(spaceId);
        if (owns(set, field.id) && !holds) fields[name] = { ...field, spaces: [...field.spaces, spaceId] };
        else if (removed.includes(field.id) && holds)
          fields[name] = { ...field, spaces: field.spaces.filter((one) => one !== spaceId) };
        else fields[name] = field;
      }
      return { fields };
    }
    default:
      return assertNever(event);
  }
}

export const customFieldsDecider: Decider<CustomFieldsState, CustomFieldsCommand, CustomFieldsEvent> = {
  initialState: () => ({ fields: {} }),
  decide,
  evolve,
};
