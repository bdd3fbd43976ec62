import 'reflect-metadata';
import { type ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsArray, IsString, MaxLength } from 'class-validator';
import { OptionalField } from './optional-field';
import { QueryFlag } from './query-flag';
import { createValidationPipe } from './validation';

class SearchParams {
  @OptionalField()
  @IsString()
  @MaxLength(5)
  q?: string;

  @QueryFlag(false)
  exact?: boolean;

  @OptionalField()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',') : value))
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}

const asQuery: ArgumentMetadata = { type: 'query', metatype: SearchParams };

describe('the validation pipe on query strings', () => {
  it('hands out a DTO of its own for every request, also for a query string it has seen before', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ q: 'doc', exact: 'true', tags: 'a,b' }, asQuery)) as SearchParams;
    const second = (await pipe.transform({ q: 'doc', exact: 'true', tags: 'a,b' }, asQuery)) as SearchParams;
    expect(first).toBeInstanceOf(SearchParams);
    expect(second).toBeInstanceOf(SearchParams);
    expect(second).toEqual({ q: 'doc', exact: true, tags: ['a', 'b'] });
    expect(second).not.toBe(first);
    expect(second.tags).not.toBe(first.tags);
    // what one handler does to its DTO never reaches the next request's
    for (const dto of [first, second]) {
      dto.q = 'changed';
      dto.tags!.push('c');
    }
    const third = (await pipe.transform({ q: 'doc', exact: 'true', tags: 'a,b' }, asQuery)) as SearchParams;
    expect(third).not.toBe(second);
    expect(third).toEqual({ q: 'doc', exact: true, tags: ['a', 'b'] });
  });

  it('refuses a bad query string every time, before and after good ones', async () => {
    const pipe = createValidationPipe();
    const bad = { q: 'far too long' };
    await expect(pipe.transform(bad, asQuery)).rejects.toThrow(BadRequestException);
    expect(await pipe.transform({ q: 'ok' }, asQuery)).toEqual({ q: 'ok' });
    await expect(pipe.transform(bad, asQuery)).rejects.toThrow(/q: .*5/);
    await expect(pipe.transform({ q: 'ok', unknown: 'x' }, asQuery)).rejects.toThrow(/unknown/);
    await expect(pipe.transform({ exact: 'yes' }, asQuery)).rejects.toThrow(/exact/);
  });

  it('tells query strings apart by every value, not only by their keys', async () => {
    const pipe = createValidationPipe();
    expect(await pipe.transform({ exact: 'false' }, asQuery)).toEqual({ exact: false });
    expect(await pipe.transform({ exact: 'true' }, asQuery)).toEqual({ exact: true });
    expect(await pipe.transform({}, asQuery)).toEqual({});
  });
});

describe('class-validator metadata, remembered per class', () => {
  it('sees metadata registered after a class was first validated', async () => {
    class Late {
      @IsString()
      name?: string;
    }
    const pipe = createValidationPipe();
    const asBody: ArgumentMetadata = { type: 'body', metatype: Late };
    await expect(pipe.transform({ name: 'a', extra: 1 }, asBody)).rejects.toThrow(/extra: unknown field/);
    expect(await pipe.transform({ name: 'a' }, asBody)).toEqual({ name: 'a' });
    // a decorator applied now (as a class loaded later would) takes part in the next validation
    MaxLength(2)(Late.prototype, 'name');
    await expect(pipe.transform({ name: 'abc' }, asBody)).rejects.toThrow(/name: .*2/);
    expect(await pipe.transform({ name: 'ab' }, asBody)).toEqual({ name: 'ab' });
  });
});
