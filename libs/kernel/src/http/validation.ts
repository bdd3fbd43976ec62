import {
  type ArgumentMetadata,
  BadRequestException,
  ValidationPipe,
  type ValidationError,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { TransformationType, plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, validate } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetMetadatas = MetadataStorage['getTargetValidationMetadatas'];

/**
 * class-validator works out a class's validation metadata afresh for every object it validates, and to find
 * inherited metadata it tests the class against every decorated class of the application (hundreds here): a few
 * percent of every write. The answer only changes when decorators register new metadata, so it is remembered per
 * class and options, and forgotten whenever anything is registered. Callers only read the returned list.
 */
function rememberTargetMetadatas(storage: MetadataStorage): void {
  const marked = storage as MetadataStorage & { quireRemembers?: true };
  if (marked.quireRemembers) return;
  marked.quireRemembers = true;
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  let remembered = new Map<unknown, Map<string, ReturnType<TargetMetadatas>>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? '-'}`;
    let byOptions = remembered.get(target);
    if (!byOptions) remembered.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = compute(target, schema, always, strictGroups, groups)));
    return found;
  };
  // class-validator groups the (now remembered) list by property name for every object: remembered by list too
  let grouped = new WeakMap<object, Record<string, ReturnType<TargetMetadatas>>>();
  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadatas) => {
    let found = grouped.get(metadatas);
    if (!found) grouped.set(metadatas, (found = group(metadatas)));
    return found;
  };
  const forgetting =
    <A extends unknown[]>(register: (...args: A) => void) =>
    (...args: A) => {
      remembered = new Map();
      grouped = new WeakMap();
      register(...args);
    };
  storage.addValidationMetadata = forgetting(storage.addValidationMetadata.bind(storage));
  storage.addConstraintMetadata = forgetting(storage.addConstraintMetadata.bind(storage));
}

rememberTargetMetadatas(getMetadataStorage());

/** How many problems a validation message names before it only counts the rest (error bodies stay small). */
export const NAMED_PROBLEMS_MAX = 10;

/**
 * Flattens class-validator errors into one message that names each offending field by its path: the first
 * {@link NAMED_PROBLEMS_MAX} problems, then how many more there are.
 */
export function validationMessage(errors: readonly ValidationError[]): string {
  const named: string[] = [];
  let total = 0;
  const visit = (list: readonly ValidationError[], parent: string): void => {
    for (const error of list) {
      const path = parent ? `${parent}.${error.property}` : error.property;
      for (const [kind, text] of Object.entries(error.constraints ?? {})) {
        if (++total <= NAMED_PROBLEMS_MAX) {
          named.push(
            kind === 'whitelistValidation' ? `${path}: unknown field` : `${path}: ${text.replace(/^\S+ /, '')}`,
          );
        }
      }
      if (error.children?.length) visit(error.children, path);
    }
  };
  visit(errors, '');
  return listProblems(named, total);
}

/** The named problems, then how many more there are (when some were left unnamed). */
function listProblems(named: readonly string[], total: number): string {
  const more = total - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}` : named.join('; ');
}

/**
 * The global validation pipe: unknown fields and wrong types are a 400 that names the field. Bodies are never
 * mass-assigned: only decorated DTO properties survive.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: invalidRequest,
  });
}

function invalidRequest(errors: ValidationError[]): BadRequestException {
  return new BadRequestException(`Invalid request: ${validationMessage(errors)}`);
}

type DtoClass = new () => object;

/** What the body pipe needs to know of a DTO class: its fields, and which of them hold another DTO. */
interface BodyShape {
  known: ReadonlySet<string>;
  /** Fields typed (`@Type`) as another DTO class, or as a primitive wrapper. */
  typed: ReadonlyMap<string, DtoClass | null>;
  /** Fields with a custom `@Transform`: class-transformer must see their value. */
  transformed: ReadonlySet<string>;
}

const shapes = new WeakMap<DtoClass, BodyShape>();

function shapeOf(target: DtoClass): BodyShape {
  let shape = shapes.get(target);
  if (shape) return shape;
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(target, '', true, false)
      .map((metadata) => metadata.propertyName),
  );
  const typed = new Map<string, DtoClass | null>();
  const transformed = new Set<string>();
  for (const key of known) {
    const type = defaultMetadataStorage.findTypeMetadata(target, key);
    if (type) {
      const made = type.typeFunction() as unknown;
      typed.set(key, isDtoClass(made) ? made : null);
    }
    if (defaultMetadataStorage.findTransformMetadatas(target, key, TransformationType.PLAIN_TO_CLASS).length > 0) {
      transformed.add(key);
    }
  }
  shape = { known, typed, transformed };
  shapes.set(target, shape);
  return shape;
}

/** Whether a class is a DTO, by class: decorators are all applied when the modules load, so it never changes. */
const dtoClasses = new WeakMap<object, boolean>();

function isDtoClass(value: unknown): value is DtoClass {
  if (typeof value !== 'function') return false;
  let known = dtoClasses.get(value);
  if (known === undefined) {
    known =
      ![String, Number, Boolean, Date, Object, Array, Buffer].includes(value as never) &&
      getMetadataStorage().getTargetValidationMetadatas(value, '', true, false).length > 0;
    dtoClasses.set(value, known);
  }
  return known;
}

/** Query strings remembered per DTO class, at most (a client choosing new ones each time only costs the full path). */
const MAX_REMEMBERED_QUERIES = 256;

type Flat = string | number | boolean | null | undefined;
const isFlat = (value: unknown): value is Flat => value === null || typeof value !== 'object';

/**
 * A validated query DTO whose fields are all flat (primitives, or arrays of them) can be handed out again as a
 * copy; anything else (nested objects, dates) is not remembered.
 */
function copyOfFlat(entity: object): object | undefined {
  const copy = Object.create(Object.getPrototypeOf(entity) as object | null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(entity)) {
    if (isFlat(value)) copy[key] = value;
    else if (Array.isArray(value) && value.every(isFlat)) copy[key] = [...value];
    else return undefined;
  }
  return copy;
}

/** A value the pipe took out of the body before class-transformer, put back before class-validator. */
interface Detached {
  path: (string | number)[];
  value: unknown;
}

/**
 * Checks a body against its DTO's fields in one linear walk and takes out the free-form values (documents,
 * schemas: objects and arrays in fields with no nested DTO type and no custom transform) so that
 * class-transformer, whose cost per key is high and grows with each object's key count, never walks them.
 * Unknown fields found here are refused at once with the same message class-validator would give.
 */
function prepareBody(
  body: Record<string, unknown>,
  target: DtoClass,
  path: (string | number)[],
  detached: Detached[],
  unknown: string[],
): void {
  const shape = shapeOf(target);
  for (const key of Object.keys(body)) {
    if (!shape.known.has(key)) {
      unknown.push([...path, key].join('.'));
      continue;
    }
    const value = body[key];
    if (value === null || typeof value !== 'object') continue;
    const nested = shape.typed.get(key);
    if (nested) {
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
            prepareBody(item as Record<string, unknown>, nested, [...path, key, index], detached, unknown);
          }
        });
      } else {
        prepareBody(value as Record<string, unknown>, nested, [...path, key], detached, unknown);
      }
    } else if (!shape.typed.has(key) && !shape.transformed.has(key)) {
      detached.push({ path: [...path, key], value });
      body[key] = Array.isArray(value) ? [] : {};
    }
  }
}

/** Whether any field of a (prepared) body is typed or transformed, so that class-transformer must make it. */
function needsTransformer(body: Record<string, unknown>, target: DtoClass): boolean {
  const { typed, transformed } = shapeOf(target);
  if (typed.size === 0 && transformed.size === 0) return false;
  for (const key of Object.keys(body)) if (typed.has(key) || transformed.has(key)) return true;
  return false;
}

function putBack(entity: object, { path, value }: Detached): void {
  let holder = entity as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
  holder[path[path.length - 1]] = value;
}

/**
 * Bodies go through {@link prepareBody} first (unknown fields refused in linear time, free-form values kept away
 * from class-transformer), then the usual transform and validation; a request without a body is validated as
 * an empty one (the spec makes several bodies optional). Query strings and path parameters take Nest's path.
 */
class BodyValidationPipe extends ValidationPipe {
  /** Query strings that passed, by DTO class and by their parsed value (as JSON): what they became. */
  private readonly queries = new WeakMap<object, Map<string, object>>();

  constructor(private readonly settings: ValidationPipeOptions) {
    super(settings);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const target = metadata.metatype;
    if (metadata.type === 'query' && metadata.data === undefined && isDtoClass(target)) {
      return this.query(value, metadata, target);
    }
    if (metadata.type !== 'body' || !isDtoClass(target)) return super.transform(value, metadata);
    const body = value ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestException('Invalid request: the body must be a JSON object');
    }
    const detached: Detached[] = [];
    const unknown: string[] = [];
    prepareBody(body as Record<string, unknown>, target, [], detached, unknown);
    if (unknown.length > 0) {
      const named = unknown.slice(0, NAMED_PROBLEMS_MAX).map((path) => `${path}: unknown field`);
      throw new BadRequestException(`Invalid request: ${listProblems(named, unknown.length)}`);
    }
    // A body whose fields are all plain values (no nested DTO, no declared type or custom transform among them)
    // becomes its class with the same fields: what class-transformer would make of it, without its walk.
    const entity = needsTransformer(body as Record<string, unknown>, target)
      ? (plainToInstance(target, body, this.settings.transformOptions) as object)
      : Object.assign(new target(), body);
    for (const item of detached) putBack(entity, item);
    const errors = await validate(entity, this.settings);
    if (errors.length > 0) throw invalidRequest(errors);
    return entity;
  }

  /**
   * A whole query string validated into its DTO. Validation is a pure function of the class and the parsed query
   * (the project's validators and transforms read nothing else), and most requests send the same few query
   * strings (often none), so what a query string became is remembered and a copy handed out the next time:
   * class-transformer and class-validator cost about a tenth of a GET otherwise. Refused queries are not
   * remembered; they take the full path every time.
   */
  private async query(value: unknown, metadata: ArgumentMetadata, target: DtoClass): Promise<unknown> {
    const key = JSON.stringify(value ?? null);
    let remembered = this.queries.get(target);
    const known = remembered?.get(key);
    if (known) return copyOfFlat(known);
    const entity = (await super.transform(value, metadata)) as unknown;
    if (entity instanceof target) {
      const copy = copyOfFlat(entity);
      if (copy) {
        if (!remembered) this.queries.set(target, (remembered = new Map()));
        if (remembered.size >= MAX_REMEMBERED_QUERIES) remembered.clear();
        remembered.set(key, copy);
      }
    }
    return entity;
  }
}
