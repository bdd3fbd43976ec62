import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ValidationFailed } from '../domain/errors';
import { type FindCursor } from '../ports/read-store.port';

/** Page size when a list request gives no `limit`. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Query parameters every list endpoint accepts. */
export class ListQuery {
  @ApiPropertyOptional({ description: 'Cursor from the previous response `next.page`.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  page?: string;

  @ApiPropertyOptional({
    description: `Number of results per page, 0..${MAX_LIMIT}; ${DEFAULT_LIMIT} when omitted.`,
    minimum: 0,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
  })
  @IsOptional()
  // Only a plain integer becomes a number: `limit=`, `limit=1e2` or `limit=0x10` stay strings and fail IsInt.
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?[0-9]{1,7}$/.test(value) ? Number(value) : value,
  )
  @IsInt()
  @Min(0)
  @Max(MAX_LIMIT)
  limit?: number;
}

export interface ListResponse<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

/** How many payload signatures a codec keeps, and of payloads up to what length (a cursor's is a few hundred). */
const MAX_SIGNED_KEPT = 1000;
const MAX_SIGNED_PAYLOAD = 1024;

/**
 * Opaque, tamper-proof page cursors: the keyset position plus the list it belongs to, signed with HMAC-SHA256.
 * A cursor from another list, or one that was edited, is rejected with 400.
 */
export class PageCursorCodec {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the cursor secret must be at least 16 characters');
  }

  encode(scope: string, cursor: FindCursor): string {
    const payload = Buffer.from(JSON.stringify([scope, cursor.values, cursor.id])).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(scope: string, page: string | undefined): FindCursor | undefined {
    if (page === undefined) return undefined;
    const dot = page.lastIndexOf('.');
    const invalid = new ValidationFailed('page: not a valid page cursor for this list');
    if (dot <= 0) throw invalid;
    const payload = page.slice(0, dot);
    const signature = Buffer.from(page.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid;
    }
    if (!Array.isArray(parsed) || parsed[0] !== scope || !Array.isArray(parsed[1]) || typeof parsed[2] !== 'string') {
      throw invalid;
    }
    return { values: parsed[1] as FindCursor['values'], id: parsed[2] };
  }

  /**
   * Signatures of recent payloads: an HMAC costs about 5 µs here (most of it setting up the key), and the same
   * page of a list is asked for again and again (its next cursor signed each time). Bounded; cleared when full.
   */
  private readonly signed = new Map<string, string>();

  private sign(payload: string): string {
    let signature = this.signed.get(payload);
    if (signature === undefined) {
      signature = createHmac('sha256', this.secret).update(payload).digest('base64url');
      if (payload.length <= MAX_SIGNED_PAYLOAD) {
        if (this.signed.size >= MAX_SIGNED_KEPT) this.signed.clear();
        this.signed.set(payload, signature);
      }
    }
    return signature;
  }
}

export const PAGE_CURSORS = Symbol('PAGE_CURSORS');
