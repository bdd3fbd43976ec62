import { type Projection } from '@app/kernel';
import { API_TOKENS, API_TOKEN_HASHES, type ApiTokenDoc } from '../application/read-models';
import { type ApiTokenCreated, type ApiTokenRevoked } from '../domain';

/** Token lookups by hash (authentication) and the user's token list. Only hashes are ever stored. */
export const apiTokensProjection: Projection<ApiTokenDoc> = {
  name: 'api-tokens',
  version: 1,
  collection: API_TOKENS,
  indexes: [
    { fields: [['tokenHash', 1]], unique: true },
    {
      fields: [
        ['userId', 1],
        ['createdAt', -1],
      ],
    },
  ],
  handles: ['ApiTokenCreated', 'ApiTokenRevoked'],
  idOf: (event) => String(event.data.tokenId),
  evolve(doc, event) {
    if (event.type === 'ApiTokenCreated') {
      const data = event.data as ApiTokenCreated['data'];
      return {
        id: data.tokenId,
        userId: data.userId,
        label: data.label,
        tokenHash: data.tokenHash,
        createdAt: data.createdAt,
      };
    }
    if (!doc) return null;
    return { ...doc, revokedAt: (event.data as ApiTokenRevoked['data']).revokedAt };
  },
};

export interface TokenHashDoc {
  /** The SHA-256 hash of the token. */
  id: string;
  tokenId: string;
  userId: string;
  revokedAt?: string;
  [key: string]: unknown;
}

/** Tokens keyed by their hash: what authenticating a request reads, one primary-key lookup per request. */
export const tokenHashesProjection: Projection<TokenHashDoc> = {
  name: 'token-hashes',
  version: 1,
  collection: API_TOKEN_HASHES,
  handles: ['ApiTokenCreated', 'ApiTokenRevoked'],
  idOf: (event) => String(event.data.tokenHash),
  evolve(doc, event) {
    if (event.type === 'ApiTokenRevoked') {
      return doc ? { ...doc, revokedAt: (event.data as ApiTokenRevoked['data']).revokedAt } : null;
    }
    const data = event.data as ApiTokenCreated['data'];
    return { id: data.tokenHash, tokenId: data.tokenId, userId: data.userId };
  },
};
